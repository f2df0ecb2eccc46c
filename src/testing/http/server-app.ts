/**
 * What the fake HTTP server answers at each path: the control API under `/__fake`, a session's store
 * under `/sessions/<id>`, and the root store everywhere else.
 *
 * @module
 */

import { controlAccess } from '../control/control-access.js';
import { CONTROL_METHODS, createControlApi } from '../control/control-api.js';
import { checkTrustedOrigins, controlGuard } from '../control/control-guard.js';
import { CONTROL_PATH, controlTarget, sessionBasePath, sessionOfApiPath } from '../control/control-urls.js';
import {
  SESSION_MAX_RECORDED_BYTES,
  SESSION_MAX_RECORDED_REQUESTS,
  SessionRegistry,
} from '../control/sessions.js';
import { checkCorsHeaders, preflightHeaders, responseCorsHeaders } from '../rules/cors.js';
import { toResponse } from '../rules/responses.js';
import type { ListenOptions, Outcome, StoreCore } from '../store/store-core.js';

/** The HTTP server's answers, before they are written to a socket. */
export interface ServerApp {
  /** The control API's path, or `undefined` when it is off. */
  readonly controlPath: string | undefined;
  /** Answers a request; `origin` is `http://host:port` as the client addressed the server. */
  respond(request: Request, origin: string, oversized: boolean): Promise<Outcome>;
  /** Answers a CORS preflight to `path`; `origin` is `http://host:port` as the client addressed the server. */
  preflight(path: string, headers: Headers, origin: string): Response;
  /** The CORS headers of an answer at `path`: the store's open ones, or the control API's. */
  corsHeaders(path: string, headers: Headers): Record<string, string>;
}

/**
 * The answers of a server for `root` listening as `options` say.
 *
 * @throws TypeError or RangeError when the control options are invalid.
 */
export function createServerApp(root: StoreCore, options: ListenOptions): ServerApp {
  const hostname = options.hostname ?? '127.0.0.1';
  const access = controlAccess(hostname, options.control);
  const cors = checkCorsHeaders(options.corsHeaders);
  const guard = controlGuard(
    hostname,
    checkTrustedOrigins(options.control === false ? undefined : options.control?.trustedOrigins),
  );
  const sessions = new SessionRegistry(
    (id) =>
      root.spawn(sessionBasePath(id, root.base.path), {
        maxRecordedRequests: SESSION_MAX_RECORDED_REQUESTS,
        maxRecordedBytes: Math.min(SESSION_MAX_RECORDED_BYTES, root.maxRecordedBytes),
      }),
    root.baseNow,
    options.control === false ? {} : (options.control ?? {}),
  );
  const control = createControlApi(root, sessions, access, guard);

  /** The answer with the `Date` of the store that gave it, whose clock its rate-limit headers follow. */
  const dated = (outcome: Outcome, store: StoreCore): Outcome => {
    if (outcome.kind === 'response' && !outcome.response.headers.has('date')) {
      outcome.response.headers.set('Date', new Date(store.now()).toUTCString());
    }
    return outcome;
  };

  return {
    controlPath: access.enabled ? CONTROL_PATH : undefined,
    async respond(request, origin, oversized) {
      const { pathname } = new URL(request.url);
      if (controlTarget(pathname) !== undefined) {
        return { kind: 'response', response: await control.respond(request, origin, oversized) };
      }
      const addressed = sessionOfApiPath(pathname);
      if (addressed === undefined)
        return dated(await root.respond(request, `${origin}${root.base.path}`, oversized), root);
      const session = sessions.use(addressed.id);
      if (session === undefined)
        return { kind: 'response', response: toResponse(sessions.noSession(addressed.id)) };
      const baseHref = `${origin}${session.core.base.path}`;
      return dated(await session.core.respond(request, baseHref, oversized), session.core);
    },
    preflight(path, headers, origin) {
      if (controlTarget(path) !== undefined) return guard.preflight(headers, origin, CONTROL_METHODS);
      const requested = headers.get('access-control-request-headers');
      return new Response(null, { status: 204, headers: preflightHeaders(requested, cors) });
    },
    corsHeaders(path, headers) {
      return controlTarget(path) === undefined ? responseCorsHeaders(cors) : guard.corsHeaders(headers);
    },
  };
}
