/**
 * What a browser's CORS rules do to the client: rate-limit headers the page may not read (pacing
 * then turns off), and a request refused or answer withheld (which looks like a network failure).
 *
 * @module
 */

import type { RateLimit } from '../types.js';
import type { RequestedWait } from './retry.js';

/**
 * Whether the browser hides the rate-limit headers, as far as this response tells (`undefined`: it
 * does not): the service sends them with every 2xx and 429, so a CORS one with none is hiding them.
 */
export function hidesRateLimitHeaders(
  response: Response,
  reading: RateLimit | null,
  requested: RequestedWait | undefined,
): boolean | undefined {
  if (response.ok || response.status === 429) return response.type === 'cors' && !reading && !requested;
}

/** The warning for such a response to `where` (`GET /pets`); docs/browser.md#cors names the headers to expose. */
export function hiddenHeadersWarning(where: string): string {
  return (
    `animal-store-sdk: ${where}: CORS hides the rate-limit headers, so pacing is off; the service must list them in ` +
    'Access-Control-Expose-Headers (docs/browser.md#cors).'
  );
}

/** Added to a connection error's message in a browser (which refuses the client every redirect). */
export const CORS_HINT = ' CORS or a redirect may be why (see the console).';
