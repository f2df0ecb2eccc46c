/**
 * A retry answered without reaching the service: its response carries the request id of the
 * attempt before it, so something between the client and the network gave that response again.
 * The browser build has a twin that looks at nothing (replayed.browser.ts), for the bundle's weight.
 *
 * @module
 */
import { readRequestId } from '../../shared/request-id.js';
import { warnOnce } from '../deprecation.js';
import type { Log } from '../log.js';

/**
 * The request id a retry's response shares with the previous attempt's response, or `undefined`;
 * when there is one, warns once per process: the cause lies in the process's `fetch`, and a client
 * made per request would otherwise warn on every request.
 */
export function noticeReplay(
  previous: Response | undefined,
  response: Response,
  log: Log,
  described: string,
  redact: <V>(value: V) => V,
): string | undefined {
  const id = readRequestId(response.headers);
  if (id === undefined || previous === undefined || readRequestId(previous.headers) !== id) return undefined;
  warnOnce(
    log,
    'replayed response',
    `animal-store-sdk: a retry of ${described} got the response of the attempt before it (request id ${redact(id)}), ` +
      'so it never reached the service. Something between the client and the network answered it: most likely ' +
      'a fetch wrapper that memoizes or caches responses, such as Next.js request memoization or its data cache. ' +
      'Check the fetch option, and the cache options in fetchOptions.',
  );
  return redact(id);
}

/** What an attempt's debug line adds after a replayed request id. */
export const REPLAYED_NOTE = ", the previous attempt's: not from the service";
