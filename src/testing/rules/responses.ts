/**
 * Building the fake Animal Store's responses: JSON bodies, Error bodies and the headers every response
 * carries.
 *
 * @module
 */
import type { ErrorBody } from '../../schemas.js';
import type { RateLimitState } from './rate-limiter.js';

/**
 * A value JSON can carry.
 *
 * @inline
 */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/**
 * The `code` of every Error body the fake sends, by the name of the situation. docs/fake-server.md
 * lists each with its status, when it is sent and the module that decides it.
 */
export const ERROR_CODES = Object.freeze({
  /** 401: no `Authorization: Bearer <key>` header, or an unknown key. */
  unauthorized: 'unauthorized',
  /** 429: the key used up its minute or day window. */
  rateLimited: 'rate_limited',
  /** 429: the key is temporarily banned for sending requests while limited. */
  apiKeyBanned: 'api_key_banned',
  /** 400: a bad `limit`, `status` or `petId`. */
  invalidParameter: 'invalid_parameter',
  /** 400: `POST /pets`, or a control request with a body, without `Content-Type: application/json`. */
  invalidContentType: 'invalid_content_type',
  /** 400: `POST /pets` or a control request with a body that is not JSON, not UTF-8, or nested over 64 levels. */
  invalidJson: 'invalid_json',
  /** 400: `POST /pets` with an empty body or one that is not a valid NewPet; a control request's body that is not what it takes. */
  invalidBody: 'invalid_body',
  /** 400: a `Prefer: code` or `delay` the fake cannot honour. */
  invalidPreference: 'invalid_preference',
  /** 404: no such pet, or (outside the base URL, or in the control API) no such route. */
  notFound: 'not_found',
  /** 404: a path under the base URL that the fake does not model (`GET /store/orders`); the message names those it does. */
  notModelled: 'not_modelled',
  /** 405: a method the route does not have (see the `Allow` header). */
  methodNotAllowed: 'method_not_allowed',
  /** 413: a request body over the store's `maxBodyBytes`. */
  payloadTooLarge: 'payload_too_large',
  /** 408: HTTP server: the request did not arrive in full within its time. */
  requestTimeout: 'request_timeout',
  /** 414: HTTP server: a request target over 8 KiB. */
  uriTooLong: 'uri_too_long',
  /** 431: HTTP server: request headers over 16 KiB. */
  headersTooLarge: 'headers_too_large',
  /** 400: HTTP server: bytes that are not an HTTP request. */
  badRequest: 'bad_request',
  /** 501: replay: no recorded request matches (the message names the nearest). */
  notRecorded: 'not_recorded',
  /** 502: record mode: the upstream deployment did not answer. */
  upstreamUnreachable: 'upstream_unreachable',
  /** 500: the fake itself failed while answering. */
  internalError: 'internal_error',
  /** 503: control API: a new session while the server holds its most. */
  tooManySessions: 'too_many_sessions',
  /** 507: `POST /pets` when the next id would pass `Number.MAX_SAFE_INTEGER`. */
  idsExhausted: 'ids_exhausted',
  /** 403: control API: a request from a page whose `Origin` the server was not told to trust. */
  untrustedOrigin: 'untrusted_origin',
  /** 403: control API: a `Host` that is neither a loopback name nor the address listened on. */
  untrustedHost: 'untrusted_host',
} as const);

/**
 * A JSON answer, before it becomes a `Response`: operations return these, and the store adds the
 * headers every response carries.
 */
export interface JsonReply {
  /** The HTTP status. */
  readonly status: number;
  /** The body, serialized as JSON; `undefined` for none (a 204). */
  readonly body?: unknown;
  /** Headers besides `Content-Type: application/json`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * An Error reply `{ code, message, status }`, `status` repeating the HTTP status.
 */
export function errorReply(
  status: number,
  code: string,
  message: string,
  headers?: Readonly<Record<string, string>>,
): JsonReply {
  const body: ErrorBody = { code, message, status };
  return headers === undefined ? { status, body } : { status, body, headers };
}

/**
 * The `Response` for a reply, with `Content-Type: application/json`, the reply's headers and `extra`
 * headers.
 */
export function toResponse(
  reply: JsonReply,
  ...extra: ReadonlyArray<Readonly<Record<string, string>>>
): Response {
  if (reply.body === undefined)
    return new Response(null, { status: reply.status, headers: mergeHeaders(reply.headers, ...extra) });
  const headers = mergeHeaders({ 'Content-Type': 'application/json' }, reply.headers, ...extra);
  return new Response(JSON.stringify(reply.body), { status: reply.status, headers });
}

/**
 * One `Headers` from several sets, later ones replacing earlier headers of the same name (in any case).
 *
 * Responses are built once from complete headers and never changed afterwards: while msw intercepts
 * requests in Node, copying a `Headers` whose entries were partly set by the platform (such as the
 * `Content-Type` of `Response.json`) drops those entries.
 */
export function mergeHeaders(...sets: ReadonlyArray<Readonly<Record<string, string>> | undefined>): Headers {
  const headers = new Headers();
  for (const set of sets) {
    for (const [name, value] of Object.entries(set ?? {})) headers.set(name, value);
  }
  return headers;
}

/**
 * The `X-RateLimit-*` headers for a rate-limit state; `X-RateLimit-Reset` is in whole unix seconds,
 * rounded up so it is never before the actual reset.
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(state.remaining),
    'X-RateLimit-Reset': String(Math.ceil(state.resetAt / 1000)),
  };
}

/**
 * Whole seconds from `now` until `retryAt`, rounded up and at least 1: the `Retry-After` value.
 */
export function retryAfterSeconds(retryAt: number, now: number): number {
  return Math.max(1, Math.ceil((retryAt - now) / 1000));
}
