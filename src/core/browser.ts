/**
 * The client in a browser: whether it runs in one (a page, or a worker a page started), and the
 * guard that refuses it an API key there. Node, Bun, Deno and Cloudflare Workers never are
 * browsers, even when a DOM test environment (jsdom, happy-dom) gives them a `window` and a
 * `document`.
 *
 * @module
 */
import { PetStoreError } from '../errors.js';

/** The globals the answer depends on, each possibly absent. */
interface RuntimeGlobals {
  readonly process?: { readonly versions?: { readonly node?: unknown } };
  readonly Deno?: { readonly version?: { readonly deno?: unknown } };
  readonly EdgeRuntime?: unknown;
  readonly navigator?: { readonly userAgent?: unknown };
  readonly document?: unknown;
  readonly WorkerGlobalScope?: unknown;
}

/**
 * `true` in a browser page or a browser's worker. Server runtimes are recognised first, by what no
 * browser has: `process.versions.node` (Node, Bun, Deno, and Workers with `nodejs_compat`),
 * `Deno.version.deno`, the Edge runtime's `EdgeRuntime` (Next.js, Vercel), or Workers' own user
 * agent; only then do `document` or a `WorkerGlobalScope` mean a browser. Each is a string, which
 * no element of a page's markup can pose as (`<div id="Deno">` makes `globalThis.Deno` an element).
 */
export function isBrowser(): boolean {
  const { process, Deno, EdgeRuntime, navigator, document, WorkerGlobalScope } = globalThis as RuntimeGlobals;
  if (
    typeof process?.versions?.node === 'string' ||
    typeof Deno?.version?.deno === 'string' ||
    typeof EdgeRuntime === 'string'
  ) {
    return false;
  }
  if (navigator?.userAgent === 'Cloudflare-Workers') return false;
  return (
    (typeof document === 'object' && document !== null) ||
    (typeof WorkerGlobalScope === 'function' && globalThis instanceof WorkerGlobalScope)
  );
}

/**
 * Why a browser gets no client with a key in its code, and what to do instead: the guard's one
 * message, which docs/browser.md explains at length.
 */
const KEY_REFUSED =
  'An apiKey string in a browser is readable by anyone: use apiKey: null behind a backend route that adds ' +
  'the key, an apiKey function that fetches a short-lived key, or dangerouslyAllowBrowser: true for a ' +
  'public key. See docs/browser.md.';

/** Throws when a string key is given in a browser without `dangerouslyAllowBrowser: true`. */
export function guardKeyInBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  if (dangerouslyAllowBrowser !== true && isBrowser()) throw new PetStoreError(KEY_REFUSED);
}
