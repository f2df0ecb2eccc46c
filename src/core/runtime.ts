/**
 * Whether the client runs in a browser: a page, or a worker a page started. Node, Bun, Deno and
 * Cloudflare Workers never are, even when a DOM test environment (jsdom, happy-dom) gives them a
 * `window` and a `document`.
 *
 * @module
 */

/** The globals the answer depends on, each possibly absent. */
interface RuntimeGlobals {
  readonly process?: { readonly versions?: { readonly node?: unknown } };
  readonly Deno?: unknown;
  readonly navigator?: { readonly userAgent?: unknown };
  readonly document?: unknown;
  readonly WorkerGlobalScope?: unknown;
}

/**
 * `true` in a browser page or a browser's worker. Server runtimes are recognised first, by what no
 * browser has: `process.versions.node` (Node, Bun, Deno, and Workers with `nodejs_compat`), `Deno`,
 * or Workers' own user agent; only then do `document` or a `WorkerGlobalScope` mean a browser.
 */
export function isBrowser(): boolean {
  const runtime = globalThis as RuntimeGlobals;
  if (typeof runtime.process?.versions?.node === 'string') return false;
  if (runtime.Deno !== undefined) return false;
  if (runtime.navigator?.userAgent === 'Cloudflare-Workers') return false;
  if (typeof runtime.document === 'object' && runtime.document !== null) return true;
  const scope = runtime.WorkerGlobalScope;
  return typeof scope === 'function' && globalThis instanceof scope;
}
