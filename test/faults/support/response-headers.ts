import type { Fetch } from '../../../src/index.js';

/** A fetch that answers with `fetch`'s responses after `edit` has changed their headers. */
export function editingResponseHeaders(fetch: Fetch, edit: (headers: Headers) => void): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(response.headers);
    edit(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
}

/** Removes the `X-RateLimit-*` headers, as a service or proxy that does not send them would. */
export function dropRateLimitHeaders(headers: Headers): void {
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    headers.delete(name);
}
