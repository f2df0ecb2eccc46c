/**
 * Record mode: a request forwarded to a real deployment, and its answer brought back as it came.
 *
 * @module
 */
import { NULL_BODY_STATUSES } from '../../shared/http-status.js';
import { ERROR_CODES, errorReply, type JsonReply } from '../rules/responses.js';
import { parseBaseUrl } from '../store/base-url.js';

/** Hop-by-hop headers (RFC 9110, 7.6.1), and those fetch sets itself: never forwarded. */
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'proxy-connection',
  'host',
  'content-length',
  'accept-encoding',
]);

/** Headers of the upstream's answer that described its transfer, which fetch has already undone. */
const NOT_RETURNED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'content-length',
]);

/** Where requests are forwarded, checked once. */
export interface Upstream {
  /** The upstream's base URL, without a trailing slash. */
  readonly href: string;
}

/**
 * Checks the upstream's base URL by the one rule for base URLs (http or https, ending in `/v1`).
 *
 * @throws TypeError when it is not such a URL.
 */
export function upstreamOf(url: string | URL): Upstream {
  try {
    return { href: parseBaseUrl(url).href };
  } catch (error) {
    throw new TypeError(`upstream: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Sends the request to the same path under the upstream, and answers with what came back: its
 * status, headers and body. An upstream that cannot be reached is a 502 `upstream_unreachable`.
 */
export async function forward(
  upstream: Upstream,
  request: Request,
  path: string,
  bodyText: string,
): Promise<Response | JsonReply> {
  const headers = new Headers();
  for (const [name, value] of request.headers)
    if (!NOT_FORWARDED.has(name.toLowerCase())) headers.append(name, value);
  const { search } = new URL(request.url);
  let answer: Response;
  let body: ArrayBuffer;
  try {
    answer = await fetch(`${upstream.href}${path}${search}`, {
      method: request.method,
      headers,
      ...(bodyText === '' || request.method === 'GET' || request.method === 'HEAD' ? {} : { body: bodyText }),
      redirect: 'manual',
      signal: request.signal,
    });
    body = await answer.arrayBuffer();
  } catch (error) {
    if (request.signal.aborted) throw error;
    // The cause's message names the host and the failure, never a header: no key in it.
    const cause =
      error instanceof Error
        ? error.cause instanceof Error
          ? error.cause.message
          : error.message
        : String(error);
    return errorReply(
      502,
      ERROR_CODES.upstreamUnreachable,
      `The upstream ${upstream.href} did not answer ${request.method} ${path}: ${cause}`,
    );
  }
  const returned = new Headers();
  for (const [name, value] of answer.headers) if (!NOT_RETURNED.has(name)) returned.append(name, value);
  const nullBody = NULL_BODY_STATUSES.has(answer.status);
  return new Response(nullBody ? null : body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: returned,
  });
}
