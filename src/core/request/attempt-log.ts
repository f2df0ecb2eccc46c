/**
 * The lines the client logs about its requests: each attempt at `debug`, each retry decision and
 * wait at `info`.
 *
 * @module
 */
import { readRequestId } from '../../shared/request-id.js';
import type { RateLimitWait } from '../types.js';
import type { RetryDecision } from './retry.js';

/**
 * `GET /pets -> 200 in 12 ms (attempt 1, request id req_1f)`, or `no response (TimeoutError)`; the
 * `note` of a replayed response (noticeReplay's) follows the request id.
 */
export function attemptLine(
  described: string,
  attempt: number,
  durationMs: number,
  response: Response | undefined,
  failure: unknown,
  redact: <V>(value: V) => V,
  note?: string,
): string {
  const outcome = response
    ? response.status
    : `no response (${failure instanceof Error ? failure.name : 'failed'})`;
  const id = response && redact(readRequestId(response.headers));
  return `animal-store-sdk: ${described} -> ${outcome} in ${Math.round(durationMs)} ms (attempt ${attempt}${id === undefined ? '' : `, request id ${id}${note ?? ''}`})`;
}

const WHY_WAIT: Readonly<Record<'retry-after' | 'reset' | 'backoff', string>> = {
  'retry-after': ', as the service asked',
  reset: ', until the rate limit resets',
  backoff: ' (backoff)',
};

/** Whether a failed attempt is retried, why, and after what wait. */
export function retryLine(described: string, decision: RetryDecision, retry: number): string {
  if (!decision.retry) return `animal-store-sdk: ${described} is not retried: ${decision.why}`;
  return `animal-store-sdk: ${described} got ${decision.why}; retry ${retry} in ${decision.waitMs} ms${WHY_WAIT[decision.reason]}`;
}

/** `listPets waits 1200 ms for the rate limit (budget)`: a wait the gate imposes. */
export function waitLine({ operation, waitMs, reason }: RateLimitWait): string {
  return `animal-store-sdk: ${operation} waits ${waitMs} ms for the rate limit (${reason})`;
}
