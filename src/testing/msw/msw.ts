/**
 * The fake Animal Store as msw request handlers, built from the msw module the build loads (see
 * load-msw.ts): they answer CORS preflights as the HTTP server does, and everything else with the store.
 *
 * @module
 */
import { isPreflight, preflightResponse, withCorsHeaders } from '../rules/cors.js';
import type { StoreCore } from '../store/store-core.js';

// Types from msw's main entry, which msw 2 and 3 both export (msw 2 lacks `msw/http`), as import
// types: the declaration bundler keeps their resolution mode, which keeps the CommonJS declarations
// valid against msw 3, an ES module only.

/** The parts of msw the handlers are made of. */
export type MswModule = Pick<
  typeof import('msw', { with: { 'resolution-mode': 'import' }}),
  'http' | 'HttpResponse'
>;

/**
 * The handlers' type, as `setupServer` and `setupWorker` take them: msw's `HttpHandler` where msw is
 * installed. msw is an optional peer: where it is missing, the built declarations' import of it is
 * ignored (the build marks it so) and reads as an error type, which this maps to `unknown`, so that
 * a project without msw type-checks `store.handlers`.
 */
export type HttpHandler = UnknownWithoutMsw<
  import('msw', { with: { 'resolution-mode': 'import' }}).HttpHandler
>;

// `unknown extends` holds for `any` and the error type alone (a `0 extends 1 & T` test does not
// resolve on the error type); msw's HttpHandler is neither.
type UnknownWithoutMsw<T> = unknown extends T ? unknown : T;

/**
 * msw handlers that answer every request under the store's base URL, whatever the method: one for the
 * base URL itself and one for everything below it (a `/*` wildcard needs the slash before it, so
 * `/v1/*` alone would miss `/v1`). Requests elsewhere match neither, so msw treats them as unhandled.
 * A preflight is answered before the store and not recorded, and every answer carries the CORS
 * headers, so a DOM environment whose `fetch` applies CORS (happy-dom) reaches the store.
 */
export function createMswHandlers(msw: MswModule, core: StoreCore): HttpHandler[] {
  const resolver = async ({ request }: { request: Request }): Promise<Response> => {
    if (isPreflight(request.method, request.headers)) return preflightResponse(request, undefined);
    try {
      const outcome = await core.respond(request, core.base.href);
      return outcome.kind === 'network-error'
        ? msw.HttpResponse.error()
        : withCorsHeaders(outcome.response, undefined);
    } catch (error) {
      // msw has already failed the aborted fetch; answering keeps it from reporting the abort as a crash.
      if (request.signal.aborted) return msw.HttpResponse.error();
      throw error;
    }
  };
  return [msw.http.all(core.base.href, resolver), msw.http.all(`${core.base.href}/*`, resolver)];
}

/**
 * The error `store.handlers` throws when msw cannot be loaded: what needs it, what does not.
 */
export function mswUnavailable(cause: unknown): Error {
  // The first line: Node adds the require stack after it.
  const reason = (cause instanceof Error ? cause.message : String(cause)).split('\n')[0];
  return new Error(
    `store.handlers needs msw, which could not be loaded (${reason}). Install it where you use ` +
      'the handlers: npm install -D msw. createFakePetStore(), store.fetch and store.listen() work without it.',
    { cause },
  );
}
