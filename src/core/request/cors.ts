/**
 * What a browser's CORS rules do to the client, and the words that say so: a response whose
 * rate-limit headers the page may not read (pacing then turns off), and a request the browser
 * refuses to send or whose answer it withholds (which looks like a network failure).
 *
 * @module
 */

import type { RateLimit } from '../types.js';
import type { RequestedWait } from './retry.js';

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
 * Whether the browser hides the rate-limit headers from the page, as far as this response tells:
 * every 2xx and 429 of the service carries them, so a CORS response (`type: 'cors'`, whose headers a
 * page reads only where the service exposes them) of either kind with no reading, and for a 429 no
 * wait either, means they are hidden. `undefined` for any other status, which does not tell.
 */
export function hidesRateLimitHeaders(
  response: Response,
  reading: RateLimit | null,
  requested: RequestedWait | undefined,
): boolean | undefined {
  if (response.ok || response.status === 429) return response.type === 'cors' && !reading && !requested;
}

/** The warning for such a response, with the request it answered (`GET /pets`). */
export function hiddenHeadersWarning(where: string): string {
  return (
    `animal-store-sdk: ${where}: CORS hides the rate-limit headers from this page, so pacing is off; ` +
    `the service must send Access-Control-Expose-Headers: ${HEADERS_TO_EXPOSE.join(', ')}.`
  );
}

/**
 * Added to a connection error's message in a browser, where CORS is a common cause of one, and a
 * redirect another (the browser refuses every redirect for the client: redirect.browser.ts).
 */
export const CORS_HINT = ' In a browser, CORS or a redirect may be why (see its console).';
