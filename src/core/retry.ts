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
import { responseTime } from './response-time.js';

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
 * until `X-RateLimit-Reset`; else `undefined`. A date in the past means no wait. Dates are read
 * against the response's `Date` header when it has one (`arrival` otherwise), so this host's clock
 * does not matter. ky reads the same headers for its own delay but does not expose the value.
 */
export function requestedWait(headers: Headers, arrival: number): number | undefined {
  const now = responseTime(headers, arrival);
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

/** Methods that may be sent twice without changing more than once (RFC 9110, 9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/** Every method the client sends, in ky's spelling: the policy below decides which are retried when. */
export const RETRY_METHODS = ['get', 'head', 'put', 'delete', 'options', 'post', 'patch'];

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
 * What the policy decided about one failed attempt, and why. `timing` says who sets the wait:
 * `requested` when the service said how long (`waitMs`), `backoff` for the exponential backoff.
 */
export type RetryDecision =
  | { retry: false; reason: string }
  | { retry: true; reason: string; timing: 'backoff' }
  | { retry: true; reason: string; timing: 'requested'; waitMs: number };

/** What failed, in a few words: `503`, `a timeout`, `a lost connection`. */
function failure(error: Error): string {
  if (isHTTPError(error)) return String(error.response.status);
  if (isTimeoutError(error)) return 'a timeout';
  if (isNetworkError(error)) return 'a lost connection';
  return error.name;
}

/**
 * The retry policy:
 *
 * - 429 is retried for every method: the service refused the request, so nothing was created or
 *   changed. A requested wait longer than `maxRetryWait` stops at once rather than hanging.
 * - 408 and 5xx from {@link RETRY_STATUS_CODES}, timeouts and lost connections are retried only for
 *   idempotent methods (GET, HEAD, PUT, DELETE, OPTIONS): a POST or PATCH that failed or timed out
 *   may have taken effect, and sending it again could create a pet twice.
 * - Anything else is not retried.
 */
export function retryDecision({ method, error, maxRetryWait, now }: RetryContext): RetryDecision {
  const what = failure(error);
  if (isHTTPError(error) && error.response.status === 429) {
    const wait = requestedWait(error.response.headers, now);
    // Without a wait the service stands by, ky would still read X-RateLimit-Reset: back off instead.
    if (wait === undefined) return { retry: true, reason: '429 without a wait', timing: 'backoff' };
    if (wait > maxRetryWait) {
      return {
        retry: false,
        reason: `429 asks for ${wait} ms, longer than maxRetryWait (${maxRetryWait} ms)`,
      };
    }
    return { retry: true, reason: '429', timing: 'requested', waitMs: wait };
  }
  const retriable = isHTTPError(error)
    ? RETRY_STATUS_CODES.includes(error.response.status)
    : isNetworkError(error) || isTimeoutError(error);
  if (!retriable) return { retry: false, reason: `${what} is not retried` };
  if (!IDEMPOTENT_METHODS.has(method)) {
    return { retry: false, reason: `${method} is not idempotent, so ${what} is not retried` };
  }
  if (isHTTPError(error) && error.response.status === 503) {
    const wait = error.response.headers.has('retry-after')
      ? requestedWait(error.response.headers, now)
      : undefined;
    // Without Retry-After ky would fall back to X-RateLimit-Reset, which says when the quota
    // renews, not when the service recovers: back off instead.
    if (wait !== undefined) {
      return { retry: true, reason: what, timing: 'requested', waitMs: Math.min(wait, maxRetryWait) };
    }
  }
  return { retry: true, reason: what, timing: 'backoff' };
}

/**
 * {@link retryDecision} as ky's `shouldRetry` takes it: `false` stops, `true` retries with backoff,
 * `undefined` lets ky wait as the service asked (`Retry-After`, capped by `maxRetryAfter`).
 */
export function shouldRetry(context: RetryContext): boolean | undefined {
  const decision = retryDecision(context);
  if (!decision.retry) return false;
  return decision.timing === 'backoff' ? true : undefined;
}
