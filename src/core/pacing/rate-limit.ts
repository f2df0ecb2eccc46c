/**
 * Reading the service's `X-RateLimit-*` headers, and what a response tells the rate-limit store.
 * Pure functions of the response and its arrival time.
 *
 * @module
 */

import type { RateLimit } from '../types.js';
import type { RateLimitOutcome } from './rate-limit-store.js';

/** The resolution of `X-RateLimit-Reset`: whole seconds. */
export const RESET_RESOLUTION_MS = 1000;

/**
 * How much earlier than read a window may reset: its whole-second reset, read against a
 * whole-second `Date` when the clocks disagree. Spreading plans to spend a window by then.
 */
export const RESET_LATENESS_MS = 2 * RESET_RESOLUTION_MS;

/** A header's digits, as `Retry-After`'s delta-seconds and the `X-RateLimit-*` headers are written. */
export const DIGITS = /^\d+$/;

/** A header's value as a non-negative safe integer, or `undefined`. */
export function readInteger(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim() ?? '';
  if (!DIGITS.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

/**
 * Reads the three `X-RateLimit-*` headers. Returns `null` unless all three are present and are
 * non-negative integers, so a malformed header never produces a half-true reading.
 */
export function parseRateLimit(headers: Headers): RateLimit | null {
  const limit = readInteger(headers, 'X-RateLimit-Limit');
  const remaining = readInteger(headers, 'X-RateLimit-Remaining');
  const reset = readInteger(headers, 'X-RateLimit-Reset');
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  return { limit, remaining, reset: new Date(reset * 1000) };
}

/**
 * What a response tells the rate-limit store: its reading, the reset relative to `serviceNow`, the
 * service's time at its arrival (response-time.ts: so a host whose clock is off neither waits too
 * long nor sends too early), and for a 429 the wait it asked for as every request's cooldown. Only a
 * success without rate-limit headers says the service does not report them: an error may come from
 * a proxy in front of it.
 */
export function rateLimitOutcome(
  { status, ok }: Response,
  reading: RateLimit | null,
  serviceNow: number,
  requestedMs: number | undefined,
): RateLimitOutcome {
  const resetAt = reading?.reset.getTime() ?? 0;
  return {
    reading: reading
      ? {
          limit: reading.limit,
          remaining: reading.remaining,
          resetInMs: Math.max(0, resetAt - serviceNow),
          window: resetAt / 1000,
        }
      : ok
        ? null
        : undefined,
    cooldownMs: status === 429 ? requestedMs : undefined,
  };
}

/** Responses can arrive out of order: within one window the lowest remaining count is the truest. */
export function latestReading(current: RateLimit | null, reading: RateLimit): RateLimit {
  return current?.reset.getTime() === reading.reset.getTime() && current.remaining < reading.remaining
    ? { ...reading, remaining: current.remaining }
    : reading;
}
