/**
 * Next.js's server `fetch`, emulated in one process as Next 16.4 builds it
 * (next/dist/server/lib/patch-fetch.js around dedupe-fetch.js): the patched fetch merges an init
 * given beside a `Request` into the Request and keeps only `next` in the init; its data cache
 * serves and stores 200s for a `revalidate` above 0 or `cache: 'force-cache'` until a tag is
 * revalidated, and reads nothing for `no-store`; within a render, the memo shares one response among
 * identical GET and HEAD fetches unless the init carries a `signal` or the request `keepalive`.
 */
import type { Fetch } from '../../src/index.js';

interface NextConfig {
  readonly revalidate?: number | false;
  readonly tags?: readonly string[];
}
type NextInit = RequestInit & { next?: NextConfig | undefined };

/** Next's memo key after the URL: method, headers but the trace context, and the request's modes. */
function memoKey(request: Request): string {
  const headers = [...request.headers].filter(([name]) => name !== 'traceparent' && name !== 'tracestate');
  const { method, mode, redirect, credentials, referrer, referrerPolicy, integrity } = request;
  return JSON.stringify([method, headers, mode, redirect, credentials, referrer, referrerPolicy, integrity]);
}

/** The memo of one render, around `upstream` (createDedupeFetch). */
function dedupe(upstream: Fetch): Fetch {
  const memo = new Map<string, Promise<Response>>();
  return (input, init) => {
    if (init?.signal) return upstream(input, init);
    const request = input instanceof Request ? input : new Request(input, init);
    if ((request.method !== 'GET' && request.method !== 'HEAD') || request.keepalive) {
      return upstream(input, init);
    }
    const key = `${request.url} ${memoKey(request)}`;
    let shared = memo.get(key);
    if (shared === undefined) {
      shared = upstream(input, init);
      memo.set(key, shared);
    }
    return shared.then((response) => response.clone());
  };
}

/** Next's data cache: what it stores, by URL and tags. */
export class DataCache {
  readonly #entries = new Map<string, { body: ArrayBuffer; init: ResponseInit; tags: readonly string[] }>();

  /** revalidateTag: every entry carrying `tag` is read from the network next time. */
  revalidateTag(tag: string): void {
    for (const [key, entry] of this.#entries) if (entry.tags.includes(tag)) this.#entries.delete(key);
  }

  /** The patched fetch of one render, over `upstream`, with a memo of its own. */
  fetch(upstream: Fetch): Fetch {
    const memoized = dedupe(upstream);
    return async (input, given) => {
      let init = given as NextInit | undefined;
      if (input instanceof Request && init) {
        const { next, ...overrides } = init;
        input = new Request(input, overrides);
        init = next ? { next } : undefined;
      }
      const cache = init?.cache ?? (input instanceof Request ? input.cache : undefined);
      let revalidate = init?.next?.revalidate;
      const conflicting =
        (cache === 'force-cache' && revalidate === 0) ||
        (cache === 'no-store' && (revalidate === false || (revalidate ?? 0) > 0));
      const mode = conflicting ? undefined : cache;
      if (conflicting) revalidate = undefined;
      if (mode === 'no-store' || mode === 'no-cache') revalidate = 0;
      if (mode === 'force-cache' && revalidate === undefined) revalidate = false;
      const cacheable = revalidate === false || (revalidate ?? 0) > 0;
      const url = input instanceof Request ? input.url : String(input);
      const key = `${url} ${JSON.stringify([...new Headers(init?.headers ?? (input as Request).headers)])}`;
      const hit = cacheable ? this.#entries.get(key) : undefined;
      if (hit) return new Response(hit.body.slice(0), hit.init);
      const { next, ...rest } = init ?? {};
      const response = await memoized(input, rest);
      if (cacheable && response.status === 200) {
        const body = await response.clone().arrayBuffer();
        const { status, statusText, headers } = response;
        this.#entries.set(key, { body, init: { status, statusText, headers }, tags: next?.tags ?? [] });
      }
      return response;
    };
  }
}
