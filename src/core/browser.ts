/**
 * Whether the client runs in a browser (a page or its worker), and the guard that refuses it an API
 * key there. Server runtimes never are browsers, even when jsdom or happy-dom gives them a `document`.
 *
 * @module
 */
import { PetStoreError } from '../errors.js';

interface RuntimeGlobals {
  readonly process?: { readonly versions?: { readonly node?: unknown } };
  readonly Deno?: { readonly version?: { readonly deno?: unknown } };
  readonly EdgeRuntime?: unknown;
  readonly navigator?: { readonly userAgent?: unknown };
  readonly document?: unknown;
  readonly WorkerGlobalScope?: unknown;
}

/**
 * `true` in a browser page or worker. Server runtimes are recognised first, each by a string no
 * browser has (and no element of a page can pose as: `<div id="Deno">` is `globalThis.Deno`).
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

export function guardKeyInBrowser(dangerouslyAllowBrowser: boolean | undefined): void {
  if (dangerouslyAllowBrowser !== true && isBrowser()) {
    throw new PetStoreError(
      'An apiKey string in a browser is readable by anyone: use apiKey: null behind a backend that adds it, ' +
        'an apiKey function that fetches a short-lived key, or dangerouslyAllowBrowser: true for a public key ' +
        '(docs/browser.md).',
    );
  }
}
