/**
 * `store.listen()` in the build for browsers: there is no HTTP server to start.
 *
 * @module
 */
import type { ListenOptions, RunningFakeServer, StoreCore } from '../store/store-core.js';

/**
 * Rejects: a page cannot listen on a port. In a browser, serve the store through msw's
 * `setupWorker(...store.handlers)`, or pass `fetch: store.fetch` to the client.
 */
export async function startHttpServer(_core: StoreCore, _options: ListenOptions): Promise<RunningFakeServer> {
  throw new TypeError(
    "store.listen() needs Node, Bun or Deno: a browser cannot listen on a port. Use msw's " +
      'setupWorker(...store.handlers), or the client option fetch: store.fetch.',
  );
}
