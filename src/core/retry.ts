/**
 * When to retry and how long to wait. Pure functions: the time is an argument.
 *
 * ky does the waiting and the backoff arithmetic; these functions decide what ky cannot know:
 * which failures are safe to repeat for which operation, and how long the service asked us to
 * wait, which the client needs for its shared cooldown and for `RateLimitError.retryAfterMs`.
 *
 * @module
 */
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';

/** Statuses worth another attempt: 429 for every operation, the rest only for idempotent ones. */
export const RETRY_STATUS_CODES = [408, 429, 500, 502, 503, 504];

/** The first backoff step, doubled on every further attempt. */
const BACKOFF_BASE_MS = 500;

/** The longest single backoff step. */
const BACKOFF_CAP_MS = 8_000;

/** Exponential backoff before retry number `attempt` (1 for the first retry), before jitter. */
export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
}

/**
 * "Equal jitter": half the step is kept and half is random, so concurrent clients spread out
 * without any of them retrying immediately.
 */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return delayMs / 2 + random() * (delayMs / 2);
}

const deltaSeconds = /^\d+$/;

/**
 * How long the service asked the caller to wait, in milliseconds: `Retry-After` as
 * delta-seconds or an HTTP-date; else, when the rate-limit headers say the window is spent,
 * until `X-RateLimit-Reset`; else `undefined`. A date in the past means no wait. ky reads the same
 * headers for its own delay but does not expose the value.
 */
export function requestedWait(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (deltaSeconds.test(retryAfter)) return Math.min(Number(retryAfter) * 1000, Number.MAX_SAFE_INTEGER);
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date) && /[a-z]/i.test(retryAfter)) return Math.max(0, date - now);
  }
  // With requests left in the window, its reset does not explain the refusal.
  if (headers.get('x-ratelimit-remaining')?.trim() !== '0') return undefined;
  const reset = headers.get('x-ratelimit-reset')?.trim();
  if (reset && deltaSeconds.test(reset))
    return Math.max(0, Math.min(Number(reset) * 1000 - now, Number.MAX_SAFE_INTEGER));
  return undefined;
}

/** What the retry policy needs to know about a failed attempt. */
export interface RetryContext {
  /** The HTTP method of the request. */
  method: string;
  /** The error ky reports for the attempt. */
  error: Error;
  /** The longest wait the client honours automatically. */
  maxRetryWait: number;
  /** The current time, in epoch milliseconds. */
  now: number;
}

/**
 * The retry policy, as ky's `shouldRetry` takes it: `false` stops, `true` retries with backoff,
 * `undefined` lets ky retry by its own rules (the status list, `Retry-After`, network errors,
 * timeouts).
 *
 * - 429 is retried for every method: the service refused the request, so nothing was created.
 *   A requested wait longer than `maxRetryWait` stops at once rather than hanging.
 * - Anything else is retried only for GET: a POST that failed or timed out may have created
 *   the pet, and sending it again could create it twice.
 */
export function shouldRetry({ method, error, maxRetryWait, now }: RetryContext): boolean | undefined {
  if (isHTTPError(error) && error.response.status === 429) {
    const wait = requestedWait(error.response.headers, now);
    // Without a wait the service stands by, ky would still read X-RateLimit-Reset: back off instead.
    if (wait === undefined) return true;
    return wait > maxRetryWait ? false : undefined;
  }
  if (method !== 'GET') return false;
  if (isHTTPError(error) && error.response.status === 503 && !error.response.headers.has('retry-after')) {
    // ky would fall back to X-RateLimit-Reset, which says when the quota renews, not when the
    // service recovers: `true` makes it back off instead.
    return true;
  }
  if (isHTTPError(error) || isNetworkError(error) || isTimeoutError(error)) return undefined;
  return false;
}
