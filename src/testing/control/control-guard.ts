/**
 * What the control API takes from a browser: it serves tests, not pages. It refuses an `Origin` it
 * was not told to trust, a `Host` that is neither a loopback name nor the address it listens on (a
 * DNS name rebound to this machine), and a write whose body is not JSON, which no page can send
 * without a CORS preflight. Its answers never carry `Access-Control-Allow-Origin: *`.
 *
 * @module
 */
import { preflightHeaders, responseCorsHeaders } from '../rules/cors.js';
import { isJsonContentType } from '../rules/json-body.js';
import { ERROR_CODES, errorReply, type JsonReply, toResponse } from '../rules/responses.js';
import { isLoopback } from './control-access.js';

/** The checks of one server's control API against pages. */
export interface ControlGuard {
  /**
   * The 403 of a request whose `Host` or `Origin` is not allowed, or `undefined`; `addressed` is
   * `http://<Host>`, the server as the client addressed it.
   */
  refuseCaller(headers: Headers, addressed: string): JsonReply | undefined;
  /** The 400 of a write whose body is not declared JSON, or `undefined`. */
  refuseBody(method: string, headers: Headers, bodyText: string): JsonReply | undefined;
  /** The CORS headers of an answer: a trusted `Origin` echoed, else none. */
  corsHeaders(headers: Headers): Record<string, string>;
  /** The answer to a CORS preflight asking for one of `methods`. */
  preflight(headers: Headers, addressed: string, methods: readonly string[]): Response;
}

/** Addresses that take connections on every interface: the control API is on there only with a token. */
const WILDCARD_ADDRESSES = new Set(['0.0.0.0', '::', '[::]']);

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Checks `control.trustedOrigins`: origins (scheme, host and port), never `*`. Returns them as
 * browsers send them (`new URL(origin).origin`).
 *
 * @throws TypeError when the list or an entry is not such an origin.
 */
export function checkTrustedOrigins(origins: unknown): readonly string[] {
  if (origins === undefined) return [];
  if (!Array.isArray(origins)) {
    throw new TypeError(`control.trustedOrigins must be an array of origins, got ${typeof origins}`);
  }
  return Object.freeze(
    origins.map((origin: unknown) => {
      if (origin === '*') {
        throw new TypeError(
          'control.trustedOrigins cannot hold "*": name each origin whose pages may drive the control API, e.g. "http://localhost:5173"',
        );
      }
      const url = typeof origin === 'string' && URL.canParse(origin) ? new URL(origin) : undefined;
      if (
        url === undefined ||
        !/^https?:$/.test(url.protocol) ||
        `${url.origin}/` !== `${url.protocol}//${url.host}${url.pathname}${url.search}${url.hash}` ||
        url.username !== '' ||
        url.password !== ''
      ) {
        throw new TypeError(
          `control.trustedOrigins must hold origins (http or https, host and port, no path), e.g. "http://localhost:5173", got ${JSON.stringify(origin)}`,
        );
      }
      return url.origin;
    }),
  );
}

/**
 * The guard of a server listening on `hostname` that trusts the pages of `trustedOrigins` (checked by
 * {@link checkTrustedOrigins}).
 */
export function controlGuard(hostname: string, trustedOrigins: readonly string[]): ControlGuard {
  const trusted = new Set(trustedOrigins);
  const listened = hostOf(
    `http://${hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname}`,
  );
  const anyHost = WILDCARD_ADDRESSES.has(hostname);
  const trustedOrigin = (headers: Headers) => {
    const origin = headers.get('origin');
    return origin !== null && trusted.has(origin) ? origin : undefined;
  };

  const refuseCaller = (headers: Headers, addressed: string): JsonReply | undefined => {
    const name = hostOf(addressed);
    const host = addressed.slice('http://'.length);
    if (!anyHost && (name === undefined || !(isLoopback(name) || name === listened))) {
      return errorReply(
        403,
        ERROR_CODES.untrustedHost,
        `The control API refuses Host ${JSON.stringify(host)}: it answers only a loopback name (localhost, 127.0.0.1, [::1]) or the address it listens on (${hostname}), so that no page reaches it through a DNS name pointed at this machine. Address it by one of those, or listen on that name (hostname, --host)`,
      );
    }
    const origin = headers.get('origin');
    if (origin !== null && !trusted.has(origin)) {
      return errorReply(
        403,
        ERROR_CODES.untrustedOrigin,
        `The control API refuses requests from the page at ${JSON.stringify(origin)}: it serves tests, not web pages. To drive it from that page, trust its origin: control.trustedOrigins: [${JSON.stringify(origin)}] for listen(), --trusted-origins ${origin} for the command`,
      );
    }
    return undefined;
  };

  return {
    refuseCaller,
    refuseBody(method, headers, bodyText) {
      if (!WRITE_METHODS.has(method)) return undefined;
      const contentType = headers.get('content-type');
      // A bodyless write (`curl -X POST .../reset`) may omit it; a page's such request carries an Origin.
      if (isJsonContentType(contentType) || (contentType === null && bodyText === '')) return undefined;
      return errorReply(
        400,
        ERROR_CODES.invalidContentType,
        `A control request's body must be JSON sent with Content-Type: application/json, got ${contentType === null ? 'no Content-Type' : JSON.stringify(contentType)}: the control API takes no body a page could send without a CORS preflight`,
      );
    },
    corsHeaders(headers) {
      return responseCorsHeaders(undefined, trustedOrigin(headers) ?? null);
    },
    preflight(headers, addressed, methods) {
      const refused = refuseCaller(headers, addressed);
      if (refused !== undefined) return toResponse(refused);
      // An OPTIONS without an Origin comes from no browser: it learns the methods, and no origin is allowed.
      const requested = headers.get('access-control-request-headers');
      return new Response(null, {
        status: 204,
        headers: preflightHeaders(requested, undefined, methods, trustedOrigin(headers) ?? null),
      });
    },
  };
}

/** The host name of `http://<host>` (`[::1]` keeps its brackets), lower-cased, or `undefined`. */
function hostOf(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).hostname : undefined;
}
