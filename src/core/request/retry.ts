/**
 * The retry policy: whether a failed attempt is retried and how long the client waits first. Pure
 * functions: the time and the randomness are arguments; the transport sleeps the wait.
 *
 * @module
 */
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import { DIGITS, readInteger } from '../pacing/rate-limit.js';
import { honouredWait } from '../queue/bound.js';
import { RETRY_BUDGET_SPENT } from './retry-budget.js';

/** Statuses worth another attempt beside 429 (retried for every method): only for idempotent requests. */
const RETRY_STATUS_CODES = [408, 500, 502, 503, 504];

/** Methods that may be sent twice without changing more than once (RFC 9110, 9.2.2). */
const IDEMPOTENT_METHODS = ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS'];

/** The first backoff, of a retry and of a probe through silence, doubled for each one after it. */
export const BACKOFF_BASE_MS = 500;

/** Exponential backoff before try number `retry` (1 for the first), before jitter: at most `capMs` (8 s for retries). */
export function backoffDelay(retry: number, capMs = 8_000): number {
  return Math.min(capMs, BACKOFF_BASE_MS * 2 ** (retry - 1));
}

/**
 * "Equal jitter": half the step is kept and half is random, so concurrent clients spread out
 * without any of them retrying immediately.
 */
export function withJitter(delayMs: number, random: () => number = Math.random): number {
  return delayMs / 2 + random() * (delayMs / 2);
}

/** How long a response asked the caller to wait, and which header said so. */
export interface RequestedWait {
  readonly ms: number;
  readonly reason: 'retry-after' | 'reset';
}

/**
 * How long a response asked the caller to wait: `Retry-After` as delta-seconds or an HTTP-date;
 * else, when the rate-limit headers say the window is spent, until `X-RateLimit-Reset`; else
 * `undefined`. Dates are read against `serviceNow`, the service's clock as the responses show it
 * (response-time.ts), so a host whose clock is off waits what the service asked; a date in the
 * past means no wait.
 */
export function requestedWait(headers: Headers, serviceNow: number): RequestedWait | undefined {
  const retryAfter = headers.get('retry-after')?.trim();
  if (retryAfter) {
    if (DIGITS.test(retryAfter)) {
      return { ms: Math.min(Number(retryAfter) * 1000, Number.MAX_SAFE_INTEGER), reason: 'retry-after' };
    }
    const date = Date.parse(retryAfter);
    if (!Number.isNaN(date) && /[a-z]/i.test(retryAfter)) {
      return { ms: Math.max(0, date - serviceNow), reason: 'retry-after' };
    }
  }
  const reset = readInteger(headers, 'X-RateLimit-Reset');
  // With requests left in the window, its reset does not explain the refusal.
  if (reset === undefined || readInteger(headers, 'X-RateLimit-Remaining') !== 0) return undefined;
  return { ms: Math.max(0, reset * 1000 - serviceNow), reason: 'reset' };
}

/** A failed attempt, as the policy sees it. */
export interface FailedAttempt {
  /** Upper case. */
  readonly method: string;
  /** Whether the request may be sent twice (the table's word for an operation); by default, whether its method is idempotent. */
  readonly idempotent?: boolean | undefined;
  /** The error ky reports for the attempt. */
  readonly error: Error;
  readonly requested: RequestedWait | undefined;
  /** Which retry this would be: 1 for the first. */
  readonly retry: number;
  readonly maxRetryAfter: number;
  /** The source of jitter. Default `Math.random`. */
  readonly random?: () => number;
  readonly budget?: { readonly left: boolean } | undefined;
}

/** The policy's answer for one failed attempt: stop, or retry after exactly `waitMs`, and why. */
export type RetryDecision =
  | { readonly retry: false; readonly why: string; readonly budgetSpent?: boolean }
  | {
      readonly retry: true;
      readonly why: string;
      readonly waitMs: number;
      readonly reason: 'retry-after' | 'reset' | 'backoff';
    };

/**
 * The retry policy, within the client's retry budget: once it is spent, a failed attempt that the
 * rules below would retry ends the call at once.
 *
 * - 429 is retried for every method: the service refused the request, so nothing was created or
 *   changed. It waits what the service asked; a wait longer than `maxRetryAfter` stops at once rather
 *   than hanging; a 429 that says nothing backs off.
 * - 408 and 5xx from the retried statuses, timeouts and lost connections are retried only for
 *   idempotent requests (an operation as its table entry says; a raw request by its method: GET,
 *   HEAD, PUT, DELETE, OPTIONS): a create that failed or timed out may have taken effect, and
 *   sending it again could create a pet twice. A 503 with `Retry-After`
 *   waits that long (at most `maxRetryAfter`); the rest back off.
 * - Anything else is not retried.
 */
export function decideRetry(attempt: FailedAttempt): RetryDecision {
  const decision = byFailure(attempt);
  return decision.retry && attempt.budget?.left === false
    ? { retry: false, why: RETRY_BUDGET_SPENT, budgetSpent: true }
    : decision;
}

function byFailure(attempt: FailedAttempt): RetryDecision {
  const {
    method,
    idempotent = IDEMPOTENT_METHODS.includes(method),
    error,
    requested,
    maxRetryAfter,
  } = attempt;
  const status = isHTTPError(error) ? error.response.status : undefined;
  if (status === 429) {
    if (requested === undefined) return backoff('429 without a wait', attempt);
    if (requested.ms > honouredWait(maxRetryAfter)) {
      return {
        retry: false,
        why: `429 asks for a ${requested.ms} ms wait, beyond maxRetryAfter (${maxRetryAfter} ms)`,
      };
    }
    return { retry: true, why: '429', waitMs: requested.ms, reason: requested.reason };
  }
  const what =
    status !== undefined
      ? String(status)
      : isTimeoutError(error)
        ? 'a timeout'
        : isNetworkError(error)
          ? 'a lost connection'
          : undefined;
  if (what === undefined || (status !== undefined && !RETRY_STATUS_CODES.includes(status))) {
    return { retry: false, why: what ?? error.name };
  }
  if (!idempotent) {
    return { retry: false, why: `${what}; ${method} is not idempotent` };
  }
  // Only Retry-After says when a failing service recovers; X-RateLimit-Reset says when the quota renews.
  if (status === 503 && requested?.reason === 'retry-after') {
    return { retry: true, why: what, waitMs: Math.min(requested.ms, maxRetryAfter), reason: 'retry-after' };
  }
  return backoff(what, attempt);
}

function backoff(why: string, { retry, random }: FailedAttempt): RetryDecision {
  return { retry: true, why, waitMs: Math.round(withJitter(backoffDelay(retry), random)), reason: 'backoff' };
}
