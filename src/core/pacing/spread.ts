/**
 * Spreading a window's budget over the window: a token bucket inside the service's fixed window,
 * which stays the ceiling. It holds a burst's worth of requests, full when a window opens, and
 * refills at the rate that spends what the window has left evenly over the time it has left, so
 * that a busy client sends a burst at the reset and then one request at a time. The Redis store's
 * script has the same rule in Lua (src/redis/scripts/spread.ts); test/redis/spread-rule.test.ts
 * holds the two to the same answers.
 *
 * @module
 */

/**
 * One window's bucket, in whole numbers as Redis keeps them: thousandths of a request, and the
 * store's clock in milliseconds.
 */
export interface SpreadBucket {
  /** The window (`X-RateLimit-Reset` as sent). */
  readonly window: number;
  /** Thousandths of a request in the bucket. */
  readonly credit: number;
  /** When it was last filled (store clock, ms). */
  readonly at: number;
}

import { RESET_LATENESS_MS } from './rate-limit.js';

/** The burst in requests: `burst` of the window's `limit`, the nearest whole number, at least one. */
export const burstSize = (limit: number, burst: number): number =>
  Math.max(1, Math.floor(burst * limit + 0.5));

/**
 * How long the next request of `window` waits (0: it may go now), and the bucket after it goes.
 * `available` is the budget left less the requests in flight (at least 1), `resetInMs` the time
 * to the reset, `burst` the share of the window's `limit` that may go at once.
 */
export function spread(
  bucket: SpreadBucket | undefined,
  window: number,
  now: number,
  available: number,
  resetInMs: number,
  limit: number,
  burst: number,
): { waitMs: number; bucket: SpreadBucket } {
  const size = burstSize(limit, burst) * 1000;
  const left = resetInMs - RESET_LATENESS_MS;
  let credit = size;
  if (bucket?.window === window && left > 0) {
    credit = Math.min(size, bucket.credit + Math.floor(((now - bucket.at) * 1000 * available) / left));
  }
  if (credit >= 1000) return { waitMs: 0, bucket: { window, credit: credit - 1000, at: now } };
  return {
    waitMs: Math.ceil(((1000 - credit) * left) / (1000 * available)),
    bucket: bucket as SpreadBucket,
  };
}
