/**
 * Loading msw for `store.handlers`, in the ES module build for Node, Bun and Deno: synchronously, on
 * first use, so that the store, `store.fetch` and the HTTP server never load it. Its variants:
 * load-msw.cjs.ts (the CommonJS build), load-msw.browser.ts and load-msw.workerd.ts.
 *
 * @module
 */
import { type MswModule, mswUnavailable } from './msw.js';

/**
 * msw, loaded with a `require` of this module's own: `setupServer(...store.handlers)` is synchronous,
 * and an `import()` is not. On Node 22.12 and later a require of msw 3 (an ES module only) or of
 * msw 2's `module-sync` build gives the very module an `import` of msw gives.
 */
export function loadMsw(): MswModule {
  try {
    const { createRequire } = process.getBuiltinModule('node:module');
    return createRequire(import.meta.url)('msw') as MswModule;
  } catch (error) {
    throw mswUnavailable(error);
  }
}
