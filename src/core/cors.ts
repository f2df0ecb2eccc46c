/**
 * What a browser's CORS rules do to the client, and the words that say so: a response whose
 * rate-limit headers the page may not read (pacing then turns off), and a request the browser
 * refuses to send or whose answer it withholds (which looks like a network failure).
 *
 * @module
 */
import type { RequestedWait } from './retry.js';
import type { RateLimit } from './types.js';

/**
 * The response headers the client reads beyond the CORS-safelisted ones: a service must name them
 * in `Access-Control-Expose-Headers` for a page to see them.
 */
export const HEADERS_TO_EXPOSE = [
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Date',
  'Deprecation',
  'Sunset',
  'Link',
] as const;

/**
 * Whether a 429 says neither how long to wait nor what the budget is because the browser hid its
 * headers from the page: the response is a CORS response (`type: 'cors'`), whose headers a page reads
 * only where the service exposes them.
 */
export function hidesRateLimitHeaders(
  response: Response,
  reading: RateLimit | null,
  requested: RequestedWait | undefined,
): boolean {
  return response.status === 429 && reading === null && requested === undefined && response.type === 'cors';
}

/** The warning for such a 429, for the request it answered (`GET /pets`). */
export function hiddenHeadersWarning(where: string): string {
  return (
    `animal-store-sdk: ${where} got 429, but the service does not expose its rate-limit headers to this ` +
    `page, so pacing is off. It must send Access-Control-Expose-Headers: ${HEADERS_TO_EXPOSE.join(', ')}.`
  );
}

/** Added to a connection error's message in a browser, where CORS is a common cause of one. */
export const CORS_HINT = " In a browser, CORS may be why: see the browser's console.";
