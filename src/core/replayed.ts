/**
 * A retry answered without reaching the service: its response carries the request id of the
 * attempt before it, so something between the client and the network gave that response again.
 * The browser build has a twin that never finds one (replayed.browser.ts), for the bundle's weight.
 *
 * @module
 */
import { readRequestId } from '../shared/request-id.js';

/** The request id a retry's response shares with the previous attempt's response, or `undefined`. */
export function replayedId(previous: Response | undefined, response: Response): string | undefined {
  const id = readRequestId(response.headers);
  return id !== undefined && previous !== undefined && readRequestId(previous.headers) === id
    ? id
    : undefined;
}

/** What an attempt's debug line adds after a replayed request id. */
export const REPLAYED_NOTE = ", the previous attempt's: not from the service";

/** The warning, given once per process: the cause lies in the process's `fetch`, not in one client. */
export const replayedWarning = (described: string, id: string): string =>
  `animal-store-sdk: a retry of ${described} got the response of the attempt before it (request id ${id}), ` +
  'so it never reached the service. Something between the client and the network answered it: most likely ' +
  'a fetch wrapper that memoizes or caches responses, such as Next.js request memoization or its data cache. ' +
  'Check the fetch option, and the cache options in fetchOptions.';
