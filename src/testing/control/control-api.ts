/**
 * The control API of the fake HTTP server, under `/__fake/`: its routes, declared once as the store's
 * are, who may call them, and their JSON answers. Every bad request is answered with the Error shape.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { petStoreOpenApi } from '../contract/openapi.js';
import { parseJsonBody } from '../rules/json-body.js';
import { type BodyRead, payloadTooLarge, readBody } from '../rules/request-body.js';
import { ERROR_CODES, errorReply, type JsonReply, toResponse } from '../rules/responses.js';
import { findRoute, methodsOf, noRoute, type Route } from '../rules/routes.js';
import type { FakeStoreControl, StoreCore } from '../store/store-core.js';
import { FakeStoreVerificationError } from '../verify/verification.js';
import { type ControlAccess, carriesToken } from './control-access.js';
import type { ControlGuard } from './control-guard.js';
import { ChaosBodySchema, ClockBodySchema, FaultBodySchema, PetsBodySchema } from './control-schemas.js';
import { controlTarget, sessionBasePath, sessionControlPath } from './control-urls.js';
import type { Session, SessionRegistry } from './sessions.js';

/** What a control route acts on: the store addressed (the root's or a session's), and the request. */
interface ControlRequest {
  readonly store: FakeStoreControl;
  readonly core: StoreCore;
  /** The session addressed, when the path names one. */
  readonly session: Session | undefined;
  readonly body: Extract<BodyRead, { tooLarge: false }>;
  /** `http://host:port`, as the client addressed the server. */
  readonly origin: string;
  /** The server's root store and its sessions. */
  readonly root: StoreCore;
  readonly sessions: SessionRegistry;
}

type ControlHandler = (request: ControlRequest) => Response;

const REALM = 'Bearer realm="animal-store-fake-control"';

/** A route whose body is JSON checked by `schema` (named `name` in messages) before `handle` sees it. */
function withBody<Schema extends z.core.$ZodType>(
  schema: Schema,
  name: string,
  handle: (value: z.output<Schema>) => ControlHandler,
): ControlHandler {
  return (request) => {
    const parsed = parseJsonBody(request.body.text, request.body.utf8, schema, name);
    return parsed.ok ? handle(parsed.value)(request) : toResponse(parsed.reply);
  };
}

function json(status: number, body: unknown, headers?: Readonly<Record<string, string>>): Response {
  return toResponse(headers === undefined ? { status, body } : { status, body, headers });
}

function noContent(): Response {
  return new Response(null, { status: 204 });
}

/** A route that changes the store and answers 204. */
function act(change: (store: FakeStoreControl) => void): ControlHandler {
  return ({ store }) => {
    change(store);
    return noContent();
  };
}

/** The routes every store's control API has, the root's and each session's. */
const STORE_ROUTES: readonly Route<ControlHandler>[] = [
  { method: 'POST', pattern: '/reset', handler: act((store) => store.reset()) },
  { method: 'GET', pattern: '/pets', handler: ({ store }) => json(200, store.pets) },
  {
    method: 'PUT',
    pattern: '/pets',
    handler: withBody(PetsBodySchema, 'list of Pets', (pets) => ({ store }) => {
      store.setPets(pets);
      return json(200, store.pets);
    }),
  },
  {
    method: 'POST',
    pattern: '/faults',
    handler: withBody(FaultBodySchema, 'fault', (fault) => act((store) => store.injectFault(fault))),
  },
  { method: 'DELETE', pattern: '/faults', handler: act((store) => store.clearFaults()) },
  { method: 'GET', pattern: '/requests', handler: ({ store }) => json(200, store.requests) },
  {
    method: 'GET',
    pattern: '/requests.har',
    handler: ({ core }) => json(200, core.har(), { 'Content-Type': 'application/json; charset=utf-8' }),
  },
  {
    method: 'POST',
    pattern: '/clock',
    handler: withBody(ClockBodySchema, 'clock change', ({ advanceMs }) => ({ store, core }) => {
      store.advanceClock(advanceMs);
      return json(200, { now: core.now() });
    }),
  },
  {
    method: 'POST',
    pattern: '/chaos',
    handler: withBody(ChaosBodySchema, 'chaos setting', (chaos) => act((store) => store.injectChaos(chaos))),
  },
  { method: 'DELETE', pattern: '/chaos', handler: act((store) => store.clearChaos()) },
  { method: 'GET', pattern: '/openapi.json', handler: () => json(200, petStoreOpenApi()) },
  { method: 'GET', pattern: '/verify', handler: ({ store }) => json(200, { problems: problemsOf(store) }) },
];

/** What `store.verify()` finds, as a list: empty when the store was used as the test set it up. */
function problemsOf(store: FakeStoreControl): readonly string[] {
  try {
    store.verify();
    return [];
  } catch (error) {
    if (error instanceof FakeStoreVerificationError) return error.problems;
    throw error;
  }
}

/** `POST /__fake/sessions`: a new session, or the 503 when the server holds its most. */
const createSession: ControlHandler = ({ sessions, root, origin }) => {
  const session = sessions.create();
  if (session === undefined) {
    return toResponse(
      errorReply(
        503,
        ERROR_CODES.tooManySessions,
        `This server keeps at most ${sessions.max} sessions at once: end finished ones with DELETE on their controlUrl; idle ones end after ${sessions.idleMs} ms`,
      ),
    );
  }
  const controlUrl = `${origin}${sessionControlPath(session.id)}`;
  const baseUrl = `${origin}${sessionBasePath(session.id, root.base.path)}`;
  return json(201, { id: session.id, baseUrl, controlUrl }, { Location: controlUrl });
};

/** The root store's control API: every store's routes, and creating sessions. */
const ROOT_ROUTES: readonly Route<ControlHandler>[] = [
  ...STORE_ROUTES,
  { method: 'POST', pattern: '/sessions', handler: createSession },
];

/** A session's control API: every store's routes, and `DELETE` on the session itself to end it. */
const SESSION_ROUTES: readonly Route<ControlHandler>[] = [
  ...STORE_ROUTES,
  {
    method: 'DELETE',
    pattern: '',
    handler: ({ session, sessions }) => {
      if (session !== undefined) sessions.end(session.id);
      return noContent();
    },
  },
];

/** Every method of the control API's routes: what a CORS preflight to it may ask for. */
export const CONTROL_METHODS: readonly string[] = methodsOf([...ROOT_ROUTES, ...SESSION_ROUTES]);

/** The control API of one server. */
export interface ControlApi {
  /** Answers a request to a path under `/__fake`; `origin` is `http://host:port` as the client sent it. */
  respond(request: Request, origin: string, oversized: boolean): Promise<Response>;
}

/** The control API of a server: the root store, its sessions, who may call it, and what pages may. */
export function createControlApi(
  root: StoreCore,
  sessions: SessionRegistry,
  access: ControlAccess,
  guard: ControlGuard,
): ControlApi {
  const maxBodyBytes = root.maxBodyBytes;

  return {
    async respond(request, origin, oversized) {
      const url = new URL(request.url);
      const method = request.method.toUpperCase();
      const refused = refusal(access, guard, request, origin);
      if (refused !== undefined) return toResponse(refused);
      const target = controlTarget(url.pathname);
      if (target === undefined) return toResponse(noRoute(method, url.pathname));
      let session: Session | undefined;
      if (target.session !== undefined) {
        session = sessions.use(target.session);
        if (session === undefined) return toResponse(sessions.noSession(target.session));
      }
      const body = oversized ? ({ tooLarge: true } as const) : await readBody(request, maxBodyBytes);
      if (body.tooLarge) return toResponse(payloadTooLarge(maxBodyBytes));
      const notJson = guard.refuseBody(method, request.headers, body.text);
      if (notJson !== undefined) return toResponse(notJson);
      const found = findRoute(
        session === undefined ? ROOT_ROUTES : SESSION_ROUTES,
        method,
        target.rest,
        url.pathname,
      );
      if (!('route' in found)) return toResponse(found);
      const core = session?.core ?? root;
      try {
        return found.route.handler({ store: core.control, core, session, body, origin, root, sessions });
      } catch (error) {
        // The store refuses values out of range with these, as it does in process: the client's mistake.
        if (error instanceof TypeError || error instanceof RangeError) {
          return toResponse(errorReply(400, ERROR_CODES.invalidBody, error.message));
        }
        throw error;
      }
    },
  };
}

/**
 * The 404 of a control API that is off, the guard's 403 of a page or a foreign `Host`, the 401 of a
 * request without the token, or `undefined`.
 */
function refusal(
  access: ControlAccess,
  guard: ControlGuard,
  request: Request,
  origin: string,
): JsonReply | undefined {
  if (!access.enabled) {
    const { pathname } = new URL(request.url);
    return errorReply(
      404,
      ERROR_CODES.notFound,
      `No resource at ${request.method.toUpperCase()} ${pathname}: the control API is off, as ${access.reason}`,
    );
  }
  const { headers } = request;
  const refused = guard.refuseCaller(headers, origin);
  if (refused !== undefined) return refused;
  if (access.token === undefined || carriesToken(headers.get('authorization'), access.token))
    return undefined;
  return errorReply(
    401,
    ERROR_CODES.unauthorized,
    'The control API needs "Authorization: Bearer <control token>"',
    {
      'WWW-Authenticate': REALM,
    },
  );
}
