/**
 * What a replayed or recorded answer may do in a browser: nothing at the fake's origin. It cannot set
 * the API's CORS or cookie headers, and an answer a browser would run (HTML, SVG, anything not JSON)
 * is sandboxed, so its scripts run at an opaque origin that the control API refuses.
 *
 * @module
 */
import { isJsonContentType } from '../rules/json-body.js';

/** Headers only the fake sets: a recording's would speak for the API's CORS and cookies. */
function ownedByTheFake(name: string): boolean {
  return name.startsWith('access-control-') || name === 'set-cookie' || name === 'set-cookie2';
}

/** The answer's headers, confined: the fake's own removed, `nosniff`, and a sandbox unless JSON. */
export function confine(response: Response): Response {
  const { headers } = response;
  for (const name of [...headers.keys()]) if (ownedByTheFake(name)) headers.delete(name);
  headers.set('X-Content-Type-Options', 'nosniff');
  if (!isJsonContentType(headers.get('content-type')))
    headers.set('Content-Security-Policy', 'sandbox allow-scripts');
  return response;
}
