/**
 * The service's request id: the header the fake sends it in, and where the client looks for it.
 *
 * @module
 */

/** The header the fake Animal Store names each response's request by. */
export const REQUEST_ID_HEADER = 'X-Request-Id';

/** The request id a response carries: `X-Request-Id`, else `Request-Id`, or `undefined`. */
export function readRequestId(headers: Headers): string | undefined {
  return headers.get('x-request-id') || headers.get('request-id') || undefined;
}
