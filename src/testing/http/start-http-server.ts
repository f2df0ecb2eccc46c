/**
 * How `store.listen()` starts the HTTP server, in the build for Node, Bun and Deno. The build for
 * browsers (the `browser` export condition) puts start-http-server.browser.ts in its place, so that
 * no browser bundle holds `node:http`, whatever its bundler does with dynamic imports.
 *
 * @module
 */
import type { ListenOptions, RunningFakeServer, StoreCore } from '../store/store-core.js';

/**
 * Loads the HTTP server on first use, so that importing `animal-store-sdk/testing` does not load
 * `node:http`, then starts it.
 */
export async function startHttpServer(core: StoreCore, options: ListenOptions): Promise<RunningFakeServer> {
  const { listenHttp } = await import('./http.js');
  return listenHttp(core, options);
}
