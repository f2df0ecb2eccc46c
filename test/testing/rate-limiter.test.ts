import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import {
  anonymousRateLimitState,
  DEFAULT_BAN_POLICY,
  DEFAULT_WINDOW_MS,
  limitsOf,
  PLAN_LIMITS,
  RateLimiter,
  windowLength,
  windowName,
} from '../../src/testing/rules/rate-limiter.js';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const T0 = Date.UTC(2030, 0, 1);

function spend(
  limiter: RateLimiter,
  key: string,
  limits: { perMinute: number; perDay: number },
  count: number,
  now: number,
) {
  for (let i = 0; i < count; i += 1) expect(limiter.consume(key, limits, now).outcome).toBe('allowed');
}

describe('plans', () => {
  it('has the interface figures for Free, Pro and Business and a documented stand-in for Enterprise', () => {
    expect(PLAN_LIMITS).toEqual({
      free: { perMinute: 60, perDay: 1_000 },
      pro: { perMinute: 300, perDay: 10_000 },
      business: { perMinute: 1_000, perDay: 100_000 },
      enterprise: { perMinute: 10_000, perDay: 10_000_000 },
    });
    expect(limitsOf('pro')).toBe(PLAN_LIMITS.pro);
    expect(limitsOf({ perMinute: 1, perDay: 2 })).toEqual({ perMinute: 1, perDay: 2 });
  });
});

describe('RateLimiter windows', () => {
  it('counts down the minute window that starts at the first request', () => {
    const limiter = new RateLimiter();
    const first = limiter.consume('k', PLAN_LIMITS.free, T0 + 500);
    expect(first).toEqual({
      outcome: 'allowed',
      state: { limit: 60, remaining: 59, resetAt: T0 + 500 + MINUTE },
    });
    const second = limiter.consume('k', PLAN_LIMITS.free, T0 + 30_000);
    expect(second.state).toEqual({ limit: 60, remaining: 58, resetAt: T0 + 500 + MINUTE });
  });

  it('keeps keys apart', () => {
    const limiter = new RateLimiter();
    spend(limiter, 'a', PLAN_LIMITS.free, 5, T0);
    expect(limiter.consume('b', PLAN_LIMITS.free, T0).state.remaining).toBe(59);
  });

  it('limits the request after the last allowed one until the minute window resets', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 3, perDay: 100 };
    spend(limiter, 'k', limits, 3, T0);
    const limited = limiter.consume('k', limits, T0 + 10_000);
    expect(limited).toEqual({
      outcome: 'limited',
      window: 'minute',
      retryAt: T0 + MINUTE,
      state: { limit: 3, remaining: 0, resetAt: T0 + MINUTE },
    });
    expect(limiter.consume('k', limits, T0 + MINUTE - 1).outcome).toBe('limited');
    const next = limiter.consume('k', limits, T0 + MINUTE);
    expect(next).toEqual({ outcome: 'allowed', state: { limit: 3, remaining: 2, resetAt: T0 + 2 * MINUTE } });
  });

  it('does not count limited requests against the window', () => {
    const limiter = new RateLimiter(false);
    const limits = { perMinute: 2, perDay: 3 };
    spend(limiter, 'k', limits, 2, T0);
    for (let i = 0; i < 20; i += 1) limiter.consume('k', limits, T0 + 1_000);
    // Only the two allowed requests used the day window: one more fits after the minute resets.
    expect(limiter.consume('k', limits, T0 + MINUTE).outcome).toBe('allowed');
    expect(limiter.consume('k', limits, T0 + MINUTE + 1).outcome).toBe('limited');
  });

  it('describes the window with the fewest requests left', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 10, perDay: 12 };
    spend(limiter, 'k', limits, 9, T0);
    // After 10 requests the minute window has 0 left and the day window 2.
    expect(limiter.consume('k', limits, T0).state).toEqual({ limit: 10, remaining: 0, resetAt: T0 + MINUTE });
    // In the next minute: minute window 9 left, day window 1 left.
    const state = limiter.consume('k', limits, T0 + MINUTE).state;
    expect(state).toEqual({ limit: 12, remaining: 1, resetAt: T0 + DAY });
  });

  it('describes the window that resets later on a tie', () => {
    const limiter = new RateLimiter();
    const state = limiter.consume('k', { perMinute: 5, perDay: 5 }, T0).state;
    expect(state).toEqual({ limit: 5, remaining: 4, resetAt: T0 + DAY });
  });

  it('answers a day-limited key with the day window, even when the minute window resets first', () => {
    const limiter = new RateLimiter();
    const limits = { perMinute: 2, perDay: 2 };
    spend(limiter, 'k', limits, 2, T0);
    const limited = limiter.consume('k', limits, T0 + 5 * MINUTE);
    expect(limited).toMatchObject({ outcome: 'limited', window: 'day', retryAt: T0 + DAY });
    expect(limiter.consume('k', limits, T0 + DAY).outcome).toBe('allowed');
  });

  it('peeks without counting', () => {
    const limiter = new RateLimiter();
    expect(limiter.peek('k', PLAN_LIMITS.free, T0)).toEqual({
      limit: 60,
      remaining: 60,
      resetAt: T0 + MINUTE,
    });
    limiter.consume('k', PLAN_LIMITS.free, T0);
    expect(limiter.peek('k', PLAN_LIMITS.free, T0 + 1)).toEqual({
      limit: 60,
      remaining: 59,
      resetAt: T0 + MINUTE,
    });
    expect(limiter.peek('k', PLAN_LIMITS.free, T0 + 2).remaining).toBe(59);
  });

  it('forgets everything on reset', () => {
    const limiter = new RateLimiter();
    spend(limiter, 'k', { perMinute: 1, perDay: 1 }, 1, T0);
    limiter.reset();
    expect(limiter.consume('k', { perMinute: 1, perDay: 1 }, T0).outcome).toBe('allowed');
  });

  it('gives an unattributed request the Free minute window, untouched', () => {
    expect(anonymousRateLimitState(T0)).toEqual({ limit: 60, remaining: 60, resetAt: T0 + MINUTE });
  });
});

describe('RateLimiter with a custom window length', () => {
  const limits = { perMinute: 2, perDay: 100, window: 3_000 };

  it('defaults to a minute and names the window by its length', () => {
    expect(DEFAULT_WINDOW_MS).toBe(MINUTE);
    expect(windowLength(PLAN_LIMITS.free)).toBe(MINUTE);
    expect(windowLength(limits)).toBe(3_000);
    expect(windowName(PLAN_LIMITS.free)).toBe('minute');
    expect(windowName(limits)).toBe('3 s');
    expect(windowName({ ...limits, window: 2_500 })).toBe('2.5 s');
    expect(windowName({ ...limits, window: 400 })).toBe('400 ms');
  });

  it('starts the short window at the first request and resets it after window', () => {
    const limiter = new RateLimiter();
    expect(limiter.consume('k', limits, T0 + 100).state).toEqual({
      limit: 2,
      remaining: 1,
      resetAt: T0 + 3_100,
    });
    spend(limiter, 'k', limits, 1, T0 + 2_000);
    expect(limiter.consume('k', limits, T0 + 3_099)).toEqual({
      outcome: 'limited',
      window: 'minute',
      retryAt: T0 + 3_100,
      state: { limit: 2, remaining: 0, resetAt: T0 + 3_100 },
    });
    expect(limiter.consume('k', limits, T0 + 3_100)).toEqual({
      outcome: 'allowed',
      state: { limit: 2, remaining: 1, resetAt: T0 + 6_100 },
    });
    expect(limiter.peek('k', limits, T0 + 6_100)).toEqual({ limit: 2, remaining: 2, resetAt: T0 + 9_100 });
  });

  it('keeps the day window a day long and bans as a minute plan would', () => {
    const limiter = new RateLimiter({ maxRequestsWhileLimited: 1, duration: 5_000 });
    const daily = { perMinute: 2, perDay: 3, window: 1_000 };
    spend(limiter, 'k', daily, 2, T0);
    spend(limiter, 'k', daily, 1, T0 + 1_000);
    expect(limiter.consume('k', daily, T0 + 2_000)).toMatchObject({ outcome: 'limited', window: 'day' });
    expect(limiter.consume('k', daily, T0 + 2_001)).toMatchObject({ outcome: 'banned', retryAt: T0 + 7_001 });
    expect(limiter.consume('k', daily, T0 + 7_001)).toMatchObject({ outcome: 'limited', retryAt: T0 + DAY });
  });

  it('rejects a window length that is not a whole number of milliseconds up to a day', () => {
    for (const windowMs of [0, -1, 1.5, DAY + 1, Number.NaN]) {
      expect(() =>
        createFakePetStore({ apiKeys: { k: { perMinute: 1, perDay: 1, window: windowMs } } }),
      ).toThrow(
        `apiKeys["k"].window must be a whole number of milliseconds from 1 to ${DAY} (a day), got ${windowMs}`,
      );
    }
    expect(() =>
      createFakePetStore({ apiKeys: { k: { perMinute: 1, perDay: 1, window: DAY } } }),
    ).not.toThrow();
  });
});

describe('RateLimiter bans', () => {
  const limits = { perMinute: 1, perDay: 1_000 };

  it('bans by default on the 11th request while limited, for 10 minutes', () => {
    expect(DEFAULT_BAN_POLICY).toEqual({ maxRequestsWhileLimited: 10, duration: 10 * MINUTE });
    const limiter = new RateLimiter();
    spend(limiter, 'k', limits, 1, T0);
    for (let i = 1; i <= 10; i += 1) expect(limiter.consume('k', limits, T0 + i).outcome).toBe('limited');
    const banned = limiter.consume('k', limits, T0 + 11);
    expect(banned).toEqual({
      outcome: 'banned',
      retryAt: T0 + 11 + 10 * MINUTE,
      state: { limit: 1, remaining: 0, resetAt: T0 + 11 + 10 * MINUTE },
    });
  });

  it('keeps the ban for its whole length whatever the key sends, then lifts it', () => {
    const limiter = new RateLimiter({ maxRequestsWhileLimited: 2, duration: 5 * MINUTE });
    spend(limiter, 'k', limits, 1, T0);
    limiter.consume('k', limits, T0);
    limiter.consume('k', limits, T0);
    expect(limiter.consume('k', limits, T0).outcome).toBe('banned');
    // Well after the minute window reset, the ban holds, and requests do not extend it.
    for (let t = 2 * MINUTE; t < 5 * MINUTE; t += MINUTE) {
      expect(limiter.consume('k', limits, T0 + t)).toMatchObject({
        outcome: 'banned',
        retryAt: T0 + 5 * MINUTE,
      });
    }
    expect(limiter.peek('k', limits, T0 + 4 * MINUTE)).toEqual({
      limit: 1,
      remaining: 0,
      resetAt: T0 + 5 * MINUTE,
    });
    expect(limiter.consume('k', limits, T0 + 5 * MINUTE).outcome).toBe('allowed');
  });

  it('starts the count again after a request gets through', () => {
    const limiter = new RateLimiter({ maxRequestsWhileLimited: 2, duration: MINUTE });
    spend(limiter, 'k', limits, 1, T0);
    limiter.consume('k', limits, T0 + 1);
    limiter.consume('k', limits, T0 + 2);
    spend(limiter, 'k', limits, 1, T0 + MINUTE);
    expect(limiter.consume('k', limits, T0 + MINUTE + 1).outcome).toBe('limited');
    expect(limiter.consume('k', limits, T0 + MINUTE + 2).outcome).toBe('limited');
    expect(limiter.consume('k', limits, T0 + MINUTE + 3).outcome).toBe('banned');
  });

  it('never bans with false', () => {
    const limiter = new RateLimiter(false);
    spend(limiter, 'k', limits, 1, T0);
    for (let i = 0; i < 100; i += 1) expect(limiter.consume('k', limits, T0 + i).outcome).toBe('limited');
  });
});
