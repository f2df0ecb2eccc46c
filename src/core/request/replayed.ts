/**
 * A retry answered without reaching the service: its response carries the previous attempt's
 * request id, so something between the client and the network gave that response again.
 *
 * @module
 */
import { readRequestId } from '../../shared/request-id.js';
import { warnOnce } from '../deprecation.js';
import type { Log } from '../log.js';

/** What a call's attempts tell: the latest response before this one, and the request as shown. */
export interface ReplayedCall {
  readonly previous?: Response | undefined;
  readonly described: string;
  readonly redact: <V>(value: V) => V;
}

/**
 * What the attempt's log line adds when a retry's response shares the previous attempt's request
 * id, or `undefined`; warns once per process, since the cause is the process's `fetch`, not the client.
 */
export function noticeReplay(
  { previous, described, redact }: ReplayedCall,
  response: Response,
  log: Log,
): string | undefined {
  const id = readRequestId(response.headers);
  if (id === undefined || previous === undefined || readRequestId(previous.headers) !== id) return undefined;
  warnOnce(
    log,
    'replayed response',
    () =>
      `animal-store-sdk: a retry of ${described} got the response of the attempt before it (request id ${redact(id)}), ` +
      'so it never reached the service. Something between the client and the network answered it: most likely ' +
      'a fetch wrapper that memoizes or caches responses, such as Next.js request memoization or its data cache. ' +
      'Check the fetch option, and the cache options in fetchOptions.',
  );
  return ", the previous attempt's: not from the service";
}
