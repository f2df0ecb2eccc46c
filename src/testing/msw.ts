/**
 * The fake Animal Store as msw request handlers.
 *
 * @module
 */
// `msw/http` rather than `msw`: msw's main entry also loads its WebSocket support, whose
// BroadcastChannel keeps Deno (which cannot unref it) running after a test has finished.
import { type HttpHandler, HttpResponse, http } from 'msw/http';
import type { StoreCore } from './store-core.js';

/**
 * msw handlers that answer every request under the store's base URL, whatever the method: one for the
 * base URL itself and one for everything below it (in msw 3 a `/*` wildcard needs the slash before it,
 * so `/v1/*` alone would miss `/v1`). Requests elsewhere match neither, so msw treats them as unhandled.
 */
export function createMswHandlers(core: StoreCore): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    try {
      const outcome = await core.respond(request, core.base.href);
      return outcome.kind === 'network-error' ? HttpResponse.error() : outcome.response;
    } catch (error) {
      // msw has already failed the aborted fetch; answering keeps it from reporting the abort as a crash.
      if (request.signal.aborted) return HttpResponse.error();
      throw error;
    }
  };
  return [http.all(core.base.href, resolver), http.all(`${core.base.href}/*`, resolver)];
}
