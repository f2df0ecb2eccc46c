/**
 * `store.listen()` in the build for Cloudflare Workers: there is no HTTP server to start.
 *
 * @module
 */
import type { ListenOptions, RunningFakeServer, StoreCore } from '../store/store-core.js';

/** Rejects: a Worker cannot listen on a port. */
export async function startHttpServer(_core: StoreCore, _options: ListenOptions): Promise<RunningFakeServer> {
  throw new TypeError(
    'store.listen() needs Node, Bun or Deno: a Cloudflare Worker cannot listen on a port. Pass the store ' +
      'to the client as fetch: store.fetch.',
  );
}
