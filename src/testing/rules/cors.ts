/**
 * The fake's CORS, written once for the HTTP server and the msw handlers: which requests are
 * preflights, how they are answered, and the headers every answer carries for a page to read.
 *
 * @module
 */
import { ROUTE_METHODS } from './routes.js';

/**
 * The response headers a page may read by default (beyond the CORS-safelisted ones): every header the
 * SDK relies on.
 */
export const EXPOSED_HEADERS: readonly string[] = Object.freeze([
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
  'WWW-Authenticate',
  'Date',
  'X-Request-Id',
]);

/** The request headers every preflight allows by default, whatever the page asks about. */
const SDK_REQUEST_HEADERS: readonly string[] = ['Authorization', 'Content-Type'];

/** How long a browser may cache a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_SECONDS = '600';

/**
 * The CORS a server applies. `undefined` is the fake's default, a test double rather than a
 * gatekeeper: preflights allow whatever headers the page asks to send, and answers expose
 * {@link EXPOSED_HEADERS}. A list makes it act like a strict service that allows and exposes only
 * the headers the list names.
 */
export type CorsHeaders = readonly string[] | undefined;

/**
 * Checks a strict service's header list: header names, each once.
 *
 * @throws TypeError when an entry is not a valid header name.
 */
export function checkCorsHeaders(headers: CorsHeaders): CorsHeaders {
  if (headers === undefined) return undefined;
  if (!Array.isArray(headers)) {
    throw new TypeError(`corsHeaders must be an array of header names, got ${typeof headers}`);
  }
  for (const name of headers) {
    if (typeof name !== 'string' || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new TypeError(`corsHeaders must hold header names, got ${JSON.stringify(name)}`);
    }
  }
  return Object.freeze(unique(headers));
}

/** `names` without repeats (header names compare case-insensitively), in their first order. */
function unique(names: Iterable<string>): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const name of names) {
    const key = name.toLowerCase();
    if (name === '' || seen.has(key)) continue;
    seen.add(key);
    kept.push(name);
  }
  return kept;
}

/**
 * Whether a request is a CORS preflight: an OPTIONS that asks what a page may send, or one without
 * a key. A DOM test environment builds the request msw sees with its own `Request`, which drops the
 * headers a page may not set (`Origin`, `Access-Control-Request-*`): its preflights arrive as a bare
 * OPTIONS. An OPTIONS with a key is a request for the store (`client.request({ method: 'OPTIONS' })`).
 */
export function isPreflight(method: string, headers: Headers): boolean {
  if (method.toUpperCase() !== 'OPTIONS') return false;
  return (headers.get('access-control-request-method') ?? '') !== '' || !headers.has('authorization');
}

/**
 * The headers of the answer to a preflight (a 204): the origin allowed (any, by default; the control
 * API names a trusted one, or none), the methods of the route table at the path (the store's by
 * default; the HTTP server passes the control API's under `/__fake/`), and the request headers
 * allowed. By default those are the headers the page asks to send (`Access-Control-Request-Headers`)
 * beside the two the SDK sends, so a client's own headers (tracing, a `headers` option) pass; a
 * strict service allows only its list.
 */
export function preflightHeaders(
  requested: string | null,
  strict: CorsHeaders,
  methods: readonly string[] = ROUTE_METHODS,
  allowOrigin: string | null = '*',
): Record<string, string> {
  const asked = (requested ?? '').split(',').map((name) => name.trim());
  return {
    ...allowOriginHeaders(allowOrigin),
    'Access-Control-Allow-Methods': methods.join(', '),
    'Access-Control-Allow-Headers': (strict ?? unique([...SDK_REQUEST_HEADERS, ...asked])).join(', '),
    'Access-Control-Max-Age': PREFLIGHT_MAX_AGE_SECONDS,
  };
}

/**
 * The headers every answer but a preflight's carries: the origin allowed (any, by default), and the
 * response headers a page may read (by default {@link EXPOSED_HEADERS}; for a strict service, its list).
 */
export function responseCorsHeaders(
  strict: CorsHeaders,
  allowOrigin: string | null = '*',
): Record<string, string> {
  const exposed = strict ?? EXPOSED_HEADERS;
  return {
    ...allowOriginHeaders(allowOrigin),
    ...(exposed.length === 0 ? {} : { 'Access-Control-Expose-Headers': exposed.join(', ') }),
  };
}

/** `Access-Control-Allow-Origin`, and `Vary: Origin` when the answer depends on the request's. */
function allowOriginHeaders(allowOrigin: string | null): Record<string, string> {
  if (allowOrigin === '*') return { 'Access-Control-Allow-Origin': '*' };
  return allowOrigin === null
    ? { Vary: 'Origin' }
    : { 'Access-Control-Allow-Origin': allowOrigin, Vary: 'Origin' };
}

/** The answer to a preflight, as a web `Response` (for the msw handlers). */
export function preflightResponse(request: Request, strict: CorsHeaders): Response {
  return new Response(null, {
    status: 204,
    headers: preflightHeaders(request.headers.get('access-control-request-headers'), strict),
  });
}

/** `response` with the CORS headers of every answer added (for the msw handlers). */
export function withCorsHeaders(response: Response, strict: CorsHeaders): Response {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(responseCorsHeaders(strict))) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
