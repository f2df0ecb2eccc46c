/**
 * The lines the client logs about its requests: one per attempt at `debug`, one per retry decision
 * at `info`. Pure functions; the {@link Log} they go to keeps the API key out.
 *
 * @module
 */
import { backoffDelay, type RetryDecision } from './retry.js';

/** `GET /pets?limit=10`: a request as the log shows it, its URL relative to the base URL. */
export function describeRequest(
  baseUrl: string,
  request: Request | URL | string | undefined,
  init?: RequestInit,
): string {
  if (request === undefined) return 'a request';
  const method = request instanceof Request ? request.method : (init?.method ?? 'GET');
  const url = request instanceof Request ? request.url : String(request);
  return `${method} ${url.startsWith(baseUrl) ? url.slice(baseUrl.length - 1) : url}`;
}

/** `GET /pets -> 200 in 12 ms (attempt 1)`, or `no response (TimeoutError)` in place of the status. */
export function attemptLine(
  described: string,
  attempt: number,
  durationMs: number,
  response: Response | undefined,
  failure: unknown,
): string {
  const outcome =
    response !== undefined
      ? String(response.status)
      : `no response (${failure instanceof Error ? failure.name : 'failed'})`;
  return `animal-store-sdk: ${described} -> ${outcome} in ${Math.round(durationMs)} ms (attempt ${attempt})`;
}

/** Why a failed attempt is retried, or not, and how long the retry waits. */
export function retryLine(described: string, decision: RetryDecision, retry: number): string {
  if (!decision.retry) return `animal-store-sdk: ${described} is not retried: ${decision.reason}`;
  const step = backoffDelay(retry);
  const wait =
    decision.timing === 'requested'
      ? `${decision.waitMs} ms, as the service asked`
      : `${step / 2}-${step} ms (backoff)`;
  return `animal-store-sdk: ${described} got ${decision.reason}; retry ${retry} in ${wait}`;
}
