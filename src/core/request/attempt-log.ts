/**
 * The lines the client logs about its requests: one per attempt at `debug`, one per retry decision
 * and one per wait at `info`. Pure functions; what the service sent (the request id) comes in redacted.
 *
 * @module
 */
import { readRequestId } from '../../shared/request-id.js';
import type { RateLimitWait } from '../types.js';
import { REPLAYED_NOTE } from './replayed.js';
import type { RetryDecision } from './retry.js';

/**
 * `GET /pets -> 200 in 12 ms (attempt 1, request id req_1f)`, or `no response (TimeoutError)` in place
 * of the status; the request id only when the response carried one. A `replayed` id is the previous
 * attempt's too: the line says the response did not come from the service.
 */
export function attemptLine(
  described: string,
  attempt: number,
  durationMs: number,
  response: Response | undefined,
  failure: unknown,
  redact: <V>(value: V) => V,
  replayed?: string,
): string {
  const outcome =
    response !== undefined
      ? String(response.status)
      : `no response (${failure instanceof Error ? failure.name : 'failed'})`;
  const requestId = response === undefined ? undefined : redact(readRequestId(response.headers));
  const id = requestId === undefined ? '' : `, request id ${requestId}${replayed ? REPLAYED_NOTE : ''}`;
  return `animal-store-sdk: ${described} -> ${outcome} in ${Math.round(durationMs)} ms (attempt ${attempt}${id})`;
}

/** What follows a retry's wait in its line: why it is that long. */
const WHY_WAIT: Readonly<Record<'retry-after' | 'reset' | 'backoff', string>> = {
  'retry-after': ', as the service asked',
  reset: ', until the rate limit resets',
  backoff: ' (backoff)',
};

/** Why a failed attempt is retried, or not, and the wait the retry takes. */
export function retryLine(described: string, decision: RetryDecision, retry: number): string {
  if (!decision.retry) return `animal-store-sdk: ${described} is not retried: ${decision.why}`;
  const wait = `${decision.waitMs} ms${WHY_WAIT[decision.reason]}`;
  return `animal-store-sdk: ${described} got ${decision.why}; retry ${retry} in ${wait}`;
}

/** `listPets waits 1200 ms for the rate limit (budget)`: a wait the gate imposes. */
export function waitLine({ operation, waitMs, reason }: RateLimitWait): string {
  return `animal-store-sdk: ${operation} waits ${waitMs} ms for the rate limit (${reason})`;
}
