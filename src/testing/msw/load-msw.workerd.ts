/**
 * `store.handlers` in the build for Cloudflare Workers (the `workerd` export condition), which does
 * not load msw: msw fails to load in Workers at many compatibility dates, and a Worker reaches the
 * store through `store.fetch`.
 *
 * @module
 */
import type { MswModule } from './msw.js';

/** Throws: the build for Workers has no msw. */
export function loadMsw(): MswModule {
  throw new TypeError(
    'store.handlers is not available in Cloudflare Workers: the build of animal-store-sdk/testing for ' +
      'workerd does not load msw. Pass the store to the client as fetch: store.fetch.',
  );
}
