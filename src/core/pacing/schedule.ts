/**
 * The schedule: one model of the key's window, from what the client's own responses showed. It
 * holds the budget, the requests that may have reached the service, the cooldown and how long a
 * window lasts, and answers one question: when the call with `ahead` calls before it can start.
 * Admission, the gate's reports and its refusals while calls wait all ask it, so that what a call is
 * told when it arrives is what then happens to it (GCRA's theoretical arrival time, by position).
 *
 * @module
 */

import { scopeId } from './in-process-store.js';
import { RESET_LATENESS_MS, RESET_RESOLUTION_MS } from './rate-limit.js';
import type {
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';
import { burstSize } from './spread.js';

/** Whether this build's schedule estimates each waiting call's start: the browser build's does not. */
export const ESTIMATES = true;

/** Whether calls are paced by the readings, and the share of a window's budget that goes at once. */
export interface Pacing {
  readonly pacing: boolean;
  readonly burst?: number | undefined;
}

/** The latest window as responses showed it, its reset on this host's clock. */
interface Window {
  readonly id: number;
  readonly limit: number;
  remaining: number;
  resetAt: number;
}

export class Schedule {
  #window: Window | undefined;
  /** How long a window lasts (a lower bound until two resets a window apart showed it); 0 while unknown. */
  #windowMs = 0;
  #windowSeen = false;
  /** How much sooner than `#windowMs` a window may come after the next: a second once a `Date` was read. */
  #unsureMs = 0;
  #cooldownUntil = 0;

  /** Takes in what a response said of the window and of a cooldown. */
  learn({ reading, cooldownMs }: RateLimitOutcome, now = Date.now()): void {
    if (cooldownMs !== undefined) this.#cooldownUntil = Math.max(this.#cooldownUntil, now + cooldownMs);
    if (!reading) return;
    const current = this.#window;
    if (current?.id === reading.window) {
      current.remaining = Math.min(current.remaining, reading.remaining);
      return;
    }
    // Read against a `Date` (the reset less the wait is not this host's time), the service's clock is
    // known to a second: as it becomes better known, later windows may come up to a second sooner.
    if (Math.abs(reading.window * 1000 - reading.resetInMs - now) > 1) this.#unsureMs = RESET_RESOLUTION_MS;
    // Reset times are whole seconds: the smallest step between two of them is one window.
    const step = current === undefined ? 0 : (reading.window - current.id) * 1000;
    if (step > 0) {
      this.#windowMs = this.#windowSeen ? Math.min(this.#windowMs, step) : step;
      this.#windowSeen = true;
    } else if (!this.#windowSeen && reading.remaining === reading.limit - 1) {
      // The window's first request: it lasts at least its reset, less the header's rounding.
      this.#windowMs = Math.max(this.#windowMs, reading.resetInMs - RESET_RESOLUTION_MS);
    }
    if (current === undefined || step > 0) {
      const { window: id, limit, remaining, resetInMs } = reading;
      this.#window = { id, limit, remaining, resetAt: now + resetInMs };
    }
  }

  /**
   * Counts `n` requests that may have reached the service with no reading back (an answer lost,
   * cut or timed out): each spends the current window's budget until it resets.
   */
  spent(n = 1): void {
    if (this.#window !== undefined) this.#window.remaining -= n;
  }

  /**
   * When (epoch ms) the call with `ahead` calls waiting before it can start, not before `after`,
   * while `inFlight` requests hold leases, by its `pacing`. The earliest it must wait for (the cooldown, the
   * budget, the reset: a lower bound, so that no call that could start in time is refused) when
   * that is past `until`; else, with `burst` below 1, its turn in the budget spread over the window
   * (spread.ts), which it leaves at `until`: spreading is a preference, not a limit.
   */
  startAt(
    after: number,
    ahead: number,
    inFlight: number,
    now: number,
    until: number,
    { pacing, burst = 1 }: Pacing,
  ): number {
    const mustAt = Math.max(after, this.#turn(ahead, inFlight, pacing, now, 1));
    return mustAt > until || burst >= 1
      ? mustAt
      : Math.min(until, Math.max(mustAt, this.#turn(ahead, inFlight, pacing, now, burst)));
  }

  /**
   * When (epoch ms) the service lets the next request go, by what it asked: the cooldown after a
   * 429 and, with `pacing`, the reset of a window it showed spent.
   */
  askedAt(now: number, pacing: boolean): number {
    return this.#turn(0, 0, pacing, now, 1);
  }

  #turn(ahead: number, inFlight: number, pacing: boolean, now: number, burst: number): number {
    const cooldown = Math.max(now, this.#cooldownUntil);
    const window = this.#window;
    if (!pacing || window === undefined || window.limit <= 0) return cooldown;
    const { limit } = window;
    const windowMs = Math.max(0, this.#windowMs - this.#unsureMs);
    let { resetAt } = window;
    let left = window.remaining - inFlight;
    if (resetAt <= now) {
      // That window is over: the next opens with the next request, if its length is known.
      if (windowMs === 0) return cooldown;
      resetAt = cooldown + windowMs;
      left = limit - inFlight;
    }
    left = Math.max(0, left);
    if (ahead < left) {
      // The requests in flight took their turns from the burst (at most all of it) just before.
      const place = ahead + Math.min(inFlight, burstSize(limit, burst));
      return Math.max(cooldown, now + spreadDelay(place, left, resetAt - now, limit, burst));
    }
    if (windowMs === 0) return Math.max(cooldown, resetAt);
    const later = ahead - left;
    const opens = resetAt + Math.floor(later / limit) * windowMs;
    return Math.max(cooldown, opens + spreadDelay(later % limit, limit, windowMs, limit, burst));
  }
}

const schedules = new WeakMap<RateLimitStore, Map<string, Schedule>>();

/**
 * The schedule of `scope` in `store`: one for every client of this process that shares the store,
 * so that each reads what the store learned from all of them.
 */
export function scheduleOf({ store, scope }: { store: RateLimitStore; scope: RateLimitScope }): Schedule {
  const byScope = schedules.get(store) ?? new Map<string, Schedule>();
  schedules.set(store, byScope);
  const schedule = byScope.get(scopeId(scope)) ?? new Schedule();
  byScope.set(scopeId(scope), schedule);
  return schedule;
}

/**
 * When the call `place` calls into a window's `budget` gets its turn, the budget spread over the
 * `ms` the window has left: the burst goes at once, each call after it one even share later.
 */
function spreadDelay(place: number, budget: number, ms: number, limit: number, burst: number): number {
  const size = burstSize(limit, burst);
  if (burst >= 1 || place < size) return 0;
  return ((place + 1 - size) * Math.max(0, ms - RESET_LATENESS_MS)) / budget;
}

/**
 * Asks the store about a call behind the head with its own bound, and gives it what the store
 * grants (`grant` says whether it still waited). The store knows no calls ahead: what it holds
 * keeps the call's start. Returns whether the call went at once; an asynchronous answer calls `then`.
 */
export function askOutOfTurn(
  ask: () => RateLimitDecision | PromiseLike<RateLimitDecision>,
  grant: (lease: string) => boolean,
  then: () => void,
): boolean {
  const decision = ask();
  if ('granted' in decision) return decision.granted && grant(decision.lease);
  Promise.resolve(decision).then((answer) => answer.granted && grant(answer.lease) && then(), then);
  return false;
}
