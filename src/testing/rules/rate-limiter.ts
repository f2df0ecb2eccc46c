/**
 * Per-key rate limiting for the fake Animal Store: the plan table, fixed windows and temporary bans.
 *
 * Everything here is pure given a clock: every method takes the current time (milliseconds since the
 * epoch) as an argument, so the rules can be checked without timers.
 *
 * @module
 */

/**
 * The name of a plan from the interface's rate-limit table.
 *
 * @example
 * ```ts
 * import type { PlanName } from 'animal-store-sdk/testing';
 *
 * const plan: PlanName = 'pro';
 * ```
 */
export type PlanName = 'free' | 'pro' | 'business' | 'enterprise';

/**
 * The two limits a plan puts on one API key, and optionally a shorter "minute" window, so that tests
 * across real processes can see several windows pass in a few seconds.
 *
 * @inline
 */
export interface RateLimits {
  /** Requests allowed in one minute window (or one `window` window). A positive integer. */
  readonly perMinute: number;
  /** Requests allowed in one day window. A positive integer. */
  readonly perDay: number;
  /**
   * The length of the short window in milliseconds: a positive integer, at most a day. Default
   * `fakePetStoreConstants.defaultWindowMs` (a minute). Headers, 429s, `Retry-After` and bans work the same for any
   * length.
   */
  readonly window?: number;
}

/**
 * The length of the short ("minute") rate-limit window when a plan does not set `window`.
 */
export const DEFAULT_WINDOW_MS = 60_000;

/**
 * A key's plan: one of the named plans, or custom limits (the interface's "Enterprise: custom").
 *
 * @inline
 */
export type Plan = PlanName | RateLimits;

/**
 * The limits of each named plan. Free, Pro and Business are the interface's figures. Enterprise limits
 * are "custom" in the interface; the fake's `'enterprise'` stands for a generous contract of 10,000
 * requests per minute and 10,000,000 per day. Pass `{ perMinute, perDay }` as the plan for other figures.
 */
export const PLAN_LIMITS: Readonly<Record<PlanName, RateLimits>> = Object.freeze({
  free: Object.freeze({ perMinute: 60, perDay: 1_000 }),
  pro: Object.freeze({ perMinute: 300, perDay: 10_000 }),
  business: Object.freeze({ perMinute: 1_000, perDay: 100_000 }),
  enterprise: Object.freeze({ perMinute: 10_000, perDay: 10_000_000 }),
});

/**
 * When a key that keeps sending requests while it is rate limited gets temporarily banned.
 *
 * @inline
 */
export interface BanPolicy {
  /**
   * How many requests a limited key may send (each answered 429 `rate_limited`) before it is banned: the
   * next one bans it. The count starts again after every request the key gets through.
   */
  readonly maxRequestsWhileLimited: number;
  /** How long a ban lasts, in milliseconds, counted from the request that caused it. */
  readonly duration: number;
}

/**
 * The default ban policy: more than 10 requests while limited bans the key for 10 minutes.
 */
export const DEFAULT_BAN_POLICY: BanPolicy = Object.freeze({
  maxRequestsWhileLimited: 10,
  duration: 10 * 60 * 1000,
});

const MINUTE_MS = DEFAULT_WINDOW_MS;
/** A day, the length of every plan's daily window and the longest minute window a test may set. */
export const DAY_MS = 24 * 60 * MINUTE_MS;

/**
 * What the `X-RateLimit-*` headers of one response say.
 */
export interface RateLimitState {
  /** `X-RateLimit-Limit`: the limit of the window described. */
  readonly limit: number;
  /** `X-RateLimit-Remaining`: requests left in that window. */
  readonly remaining: number;
  /** When that window resets, in milliseconds since the epoch (the header carries it in seconds). */
  readonly resetAt: number;
}

/**
 * The rate limiter's answer to one request.
 *
 * - `allowed`: the request counts against the key and goes on;
 * - `limited`: a window is used up; `retryAt` is when the window that frees the key last resets, and
 *   `window` says which one it is;
 * - `banned`: the key is banned until `retryAt`.
 */
export type LimiterVerdict =
  | { readonly outcome: 'allowed'; readonly state: RateLimitState }
  | {
      readonly outcome: 'limited';
      readonly state: RateLimitState;
      readonly retryAt: number;
      readonly window: 'minute' | 'day';
    }
  | { readonly outcome: 'banned'; readonly state: RateLimitState; readonly retryAt: number };

interface Window {
  readonly startedAt: number;
  readonly count: number;
}

interface KeyState {
  minute: Window | undefined;
  day: Window | undefined;
  requestsWhileLimited: number;
  bannedUntil: number | undefined;
}

interface WindowView {
  readonly name: 'minute' | 'day';
  readonly limit: number;
  readonly used: number;
  readonly resetAt: number;
}

/**
 * Fixed-window rate limiting per API key, with temporary bans.
 *
 * - Each key has a minute window and a day window. A window starts at the key's first request after
 *   the previous one ended and lasts 60 s (or the plan's `window`) or 24 h; requests that are
 *   answered 429 do not count.
 * - A request is limited when either window is used up. It is answered with the window that frees the
 *   key last (the later reset of the used-up windows).
 * - Headers describe the window with the fewest requests left; on a tie, the one that resets later.
 * - A key that sends more than `maxRequestsWhileLimited` requests while limited is banned for
 *   `duration`; the ban ends on time whatever the key sends meanwhile.
 */
export class RateLimiter {
  readonly #ban: BanPolicy | false;
  readonly #keys = new Map<string, KeyState>();

  /**
   * @param ban When to ban a key that keeps sending requests while limited; `false` never bans.
   */
  constructor(ban: BanPolicy | false = DEFAULT_BAN_POLICY) {
    this.#ban = ban;
  }

  /**
   * Decides one request from `key` at time `now`, and counts it if it is allowed.
   */
  consume(key: string, limits: RateLimits, now: number): LimiterVerdict {
    const state = this.#stateOf(key, limits, now);

    if (state.bannedUntil !== undefined) {
      return { outcome: 'banned', state: bannedState(limits, state.bannedUntil), retryAt: state.bannedUntil };
    }

    const views = windowViews(state, limits, now);
    const usedUp = views.filter((view) => view.used >= view.limit);
    if (usedUp.length > 0) {
      state.requestsWhileLimited += 1;
      if (this.#ban !== false && state.requestsWhileLimited > this.#ban.maxRequestsWhileLimited) {
        state.bannedUntil = now + this.#ban.duration;
        state.requestsWhileLimited = 0;
        return {
          outcome: 'banned',
          state: bannedState(limits, state.bannedUntil),
          retryAt: state.bannedUntil,
        };
      }
      const blocking = usedUp.reduce((a, b) => (b.resetAt > a.resetAt ? b : a));
      return {
        outcome: 'limited',
        state: describe(blocking),
        retryAt: blocking.resetAt,
        window: blocking.name,
      };
    }

    state.minute = { startedAt: state.minute?.startedAt ?? now, count: (state.minute?.count ?? 0) + 1 };
    state.day = { startedAt: state.day?.startedAt ?? now, count: (state.day?.count ?? 0) + 1 };
    state.requestsWhileLimited = 0;
    return { outcome: 'allowed', state: tightest(windowViews(state, limits, now)) };
  }

  /**
   * What the headers would say for `key` at time `now`, without counting a request.
   */
  peek(key: string, limits: RateLimits, now: number): RateLimitState {
    const state = this.#stateOf(key, limits, now);
    if (state.bannedUntil !== undefined) return bannedState(limits, state.bannedUntil);
    return tightest(windowViews(state, limits, now));
  }

  /**
   * Forgets every key's windows and bans.
   */
  reset(): void {
    this.#keys.clear();
  }

  /** The key's state with every window and ban that ended by `now` dropped. */
  #stateOf(key: string, limits: RateLimits, now: number): KeyState {
    let state = this.#keys.get(key);
    if (state === undefined) {
      state = { minute: undefined, day: undefined, requestsWhileLimited: 0, bannedUntil: undefined };
      this.#keys.set(key, state);
    }
    if (state.minute !== undefined && now >= state.minute.startedAt + windowLength(limits)) {
      state.minute = undefined;
    }
    if (state.day !== undefined && now >= state.day.startedAt + DAY_MS) state.day = undefined;
    if (state.bannedUntil !== undefined && now >= state.bannedUntil) state.bannedUntil = undefined;
    return state;
  }
}

/**
 * The headers of a request that cannot be attributed to a key (a 401): the Free plan's minute window,
 * untouched, as if it started now.
 */
export function anonymousRateLimitState(now: number): RateLimitState {
  const limit = PLAN_LIMITS.free.perMinute;
  return { limit, remaining: limit, resetAt: now + MINUTE_MS };
}

/**
 * The limits of a plan.
 */
export function limitsOf(plan: Plan): RateLimits {
  return typeof plan === 'string' ? PLAN_LIMITS[plan] : plan;
}

/**
 * The length of a plan's short ("minute") window, in milliseconds.
 */
export function windowLength(limits: RateLimits): number {
  return limits.window ?? DEFAULT_WINDOW_MS;
}

/**
 * How a plan's short window is named in messages: `minute`, or its length (`3 s`, `2.5 s`, `500 ms`).
 */
export function windowName(limits: RateLimits): string {
  const length = windowLength(limits);
  if (length === DEFAULT_WINDOW_MS) return 'minute';
  return length >= 1000 ? `${length / 1000} s` : `${length} ms`;
}

function windowViews(state: KeyState, limits: RateLimits, now: number): WindowView[] {
  return [
    view('minute', state.minute, limits.perMinute, windowLength(limits), now),
    view('day', state.day, limits.perDay, DAY_MS, now),
  ];
}

/** A window that has not started yet is shown as if it started now, with nothing used. */
function view(
  name: 'minute' | 'day',
  window: Window | undefined,
  limit: number,
  lengthMs: number,
  now: number,
): WindowView {
  return {
    name,
    limit,
    used: window?.count ?? 0,
    resetAt: (window?.startedAt ?? now) + lengthMs,
  };
}

function tightest(views: readonly WindowView[]): RateLimitState {
  const chosen = views.reduce((a, b) => {
    const left = (w: WindowView) => w.limit - w.used;
    if (left(b) !== left(a)) return left(b) < left(a) ? b : a;
    return b.resetAt > a.resetAt ? b : a;
  });
  return describe(chosen);
}

function describe(window: WindowView): RateLimitState {
  return { limit: window.limit, remaining: Math.max(0, window.limit - window.used), resetAt: window.resetAt };
}

function bannedState(limits: RateLimits, bannedUntil: number): RateLimitState {
  return { limit: limits.perMinute, remaining: 0, resetAt: bannedUntil };
}
