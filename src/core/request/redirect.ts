/**
 * Redirects carry nothing away: attempts are fetched with `redirect: 'manual'`, and a redirect is
 * followed only while it stays under the base URL, checked at each hop; any other is a
 * {@link RedirectError}, and no header or body of the client's is sent where it points.
 *
 * @module
 */
import { RedirectError } from '../../errors.js';
import { isUnder } from './request-path.js';

/** How every attempt is fetched: the redirects are this module's to follow. */
export const REDIRECT: RequestRedirect = 'manual';

const REDIRECTS = [301, 302, 303, 307, 308];

/** An API redirects once if ever; fetch's own limit is 20. */
const MAX_HOPS = 5;

export interface RedirectingCall {
  /** `GET /pets`, for messages. */
  readonly where: string;
  /** The caller's: `redirect: 'error'` follows none. */
  readonly fetchOptions: RequestInit | undefined;
  /** Its JSON body, sent again by a 307 or 308. */
  readonly spec: { readonly json?: unknown };
  readonly redact: <V>(value: V) => V;
}

/**
 * The response once every redirect under the base URL is followed with `send`; one that is no
 * redirect comes back as it is, without a promise.
 */
export function followRedirects(
  response: Response,
  request: Request,
  send: (request: Request) => Promise<Response>,
  call: RedirectingCall,
  baseUrl: string,
): Response | Promise<Response> {
  return REDIRECTS.includes(response.status) ? follow(response, request, send, call, baseUrl) : response;
}

async function follow(
  response: Response,
  request: Request,
  send: (request: Request) => Promise<Response>,
  call: RedirectingCall,
  baseUrl: string,
): Promise<Response> {
  let current = request;
  for (let hops = 0; ; hops++) {
    // A 3xx without a Location is a response like any other (fetch's rule too).
    const location = REDIRECTS.includes(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    await response.body?.cancel();
    // A Location that is no URL leads nowhere the client may go.
    let target: URL | null = null;
    try {
      target = new URL(location, current.url);
    } catch {}
    const why =
      target === null || !isUnder(baseUrl, target)
        ? 'it leaves the base URL'
        : call.fetchOptions?.redirect === 'error'
          ? "fetchOptions say redirect: 'error'"
          : hops === MAX_HOPS
            ? `it is the redirect past the ${MAX_HOPS}th`
            : undefined;
    if (why !== undefined) {
      const shown = call.redact(target?.href ?? location);
      throw new RedirectError(
        `The service redirected ${call.where} (${response.status}) to ${shown}; the client did not follow, since ${why}, and nothing was sent there.`,
        response.status,
        shown,
      );
    }
    // 303, and 301 or 302 after a POST, become a GET without a body (fetch's rule); 307 and 308 keep both.
    const get =
      response.status === 303
        ? current.method !== 'HEAD'
        : response.status < 303 && current.method === 'POST';
    const headers = new Headers(current.headers);
    if (get) headers.delete('content-type');
    current = new Request(target as URL, {
      method: get ? 'GET' : current.method,
      headers,
      body: get || call.spec.json === undefined ? null : JSON.stringify(call.spec.json),
      signal: current.signal,
      redirect: 'manual',
    });
    response = await send(current);
  }
}
