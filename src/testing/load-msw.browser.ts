/**
 * msw for `store.handlers` in the build for browsers. A page cannot load a module synchronously on
 * first use, so msw is imported with the entry, but as an optional peer: where it is missing, the
 * import fails here and only `store.handlers` throws. Bundlers build a page without msw from this
 * dynamic import (Vite gives a missing optional peer a module that throws when loaded; esbuild leaves
 * an import() it cannot resolve to run, and fail, in the page).
 *
 * @module
 */
import { type MswModule, mswUnavailable } from './msw.js';

let msw: MswModule | undefined;
let failure: unknown;
try {
  msw = await import('msw');
} catch (error) {
  failure = error;
}

/** msw, imported with the entry; throws where it could not be. */
export function loadMsw(): MswModule {
  if (msw === undefined) throw mswUnavailable(failure);
  return msw;
}
