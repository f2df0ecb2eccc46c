/**
 * Admission: the earliest a call could start, from what the gate has learned (the budget left, when
 * the window resets, how long a window lasts, the cooldown after a 429) and how many calls wait
 * ahead of it. A call that cannot start within its bound is refused before it waits: a fast "no"
 * costs its caller less than a slow one, and spends no budget on a caller who will have left.
 *
 * @module
 */
import type { RateLimitError } from '../../errors.js';
import { RESET_RESOLUTION_MS } from '../pacing/rate-limit.js';
import type { RateLimitOutcome } from '../pacing/rate-limit-store.js';
import { burstSize } from '../pacing/spread.js';
import { queueFull, tooLate, tooLong } from './refusals.js';

/** A call asking to wait in the queue, and what the queue holds when it asks. */
export interface Asking {
  /** Calls waiting already, and leases granted and not yet handed back. */
  readonly waiting: number;
  readonly leases: number;
  readonly pacing: boolean;
  readonly burst?: number | undefined;
  readonly maxQueued: number;
  /** The longest wait honoured (`maxRetryWait`). */
  readonly maxWait: number;
  /** Now, and the latest the call may start (epoch ms). */
  readonly now: number;
  readonly until: number;
}

/** The latest window as responses showed it, its reset on this host's clock. */
interface Window {
  readonly id: number;
  readonly limit: number;
  readonly remaining: number;
  readonly resetAt: number;
}

export class Admission {
  #window: Window | undefined;
  /** How long a window lasts, from two resets seen one window apart; 0 while unknown. */
  #windowMs = 0;
  #cooldownUntil = 0;

  /** Takes in what a response said of the window and of a cooldown. */
  learn({ reading, cooldownMs }: RateLimitOutcome, now: number): void {
    if (cooldownMs !== undefined) this.#cooldownUntil = Math.max(this.#cooldownUntil, now + cooldownMs);
    if (!reading) return;
    const current = this.#window;
    if (current?.id === reading.window) {
      this.#window = { ...current, remaining: Math.min(current.remaining, reading.remaining) };
      return;
    }
    // Reset times are whole seconds: the smallest step between two of them is one window.
    const step = current === undefined ? 0 : (reading.window - current.id) * 1000;
    if (step > 0) this.#windowMs = this.#windowMs === 0 ? step : Math.min(this.#windowMs, step);
    if (current === undefined || step > 0) {
      const { window: id, limit, remaining, resetInMs } = reading;
      this.#window = { id, limit, remaining, resetAt: now + resetInMs };
    }
  }

  /**
   * The refusal for a call that asks to wait, or `undefined` when it may: `maxQueued` wait already,
   * the wait every call faces now is beyond `maxWait`, or the call cannot start by its `until`.
   */
  refusal({
    waiting,
    leases,
    pacing,
    burst,
    maxQueued,
    maxWait,
    now,
    until,
  }: Asking): RateLimitError | undefined {
    if (waiting >= maxQueued)
      return queueFull(maxQueued, this.earliestStartMs(waiting, leases, pacing, now, burst));
    // The wait every call faces now (the reset, a cooldown) beyond maxWait is the service's to answer for.
    const serviceWaitMs = this.earliestStartMs(0, leases, pacing, now);
    if (serviceWaitMs > maxWait + RESET_RESOLUTION_MS) return tooLong(serviceWaitMs);
    const startMs = this.earliestStartMs(waiting, leases, pacing, now, burst);
    return startMs > until - now ? tooLate(startMs, until - now) : undefined;
  }

  /**
   * The least time, in ms, before a call with `ahead` calls before it can start, while `inFlight`
   * requests hold leases: a lower bound, so that no call that could start in time is refused.
   * `pacing` false: only the cooldown holds calls; `burst` below 1: each window's budget is spread
   * over it beyond that share (spread.ts).
   */
  earliestStartMs(ahead: number, inFlight: number, pacing: boolean, now: number, burst = 1): number {
    const cooldown = Math.max(0, this.#cooldownUntil - now);
    const window = this.#window;
    if (!pacing || window === undefined || window.limit <= 0) return cooldown;
    let resetIn = window.resetAt - now;
    let left = Math.max(0, window.remaining - inFlight);
    if (resetIn <= 0) {
      // That window is over; without its length, nothing is known of the current one.
      if (this.#windowMs === 0) return cooldown;
      resetIn = this.#windowMs - (-resetIn % this.#windowMs);
      left = window.limit;
    }
    const { limit } = window;
    if (ahead < left) {
      // The requests in flight took their turns from the burst (at most all of it) just before.
      const place = ahead + Math.min(inFlight, burstSize(limit, burst));
      return Math.max(cooldown, spreadDelay(place, left, resetIn, limit, burst));
    }
    const laterWindows = Math.floor((ahead - left) / limit);
    const turn = spreadDelay((ahead - left) % limit, limit, this.#windowMs, limit, burst);
    return Math.max(cooldown, resetIn + laterWindows * this.#windowMs + turn);
  }
}

/**
 * When the call `place` calls into a window's `budget` gets its turn, the budget spread over the
 * `ms` the window has left: the burst goes at once, each call after it one even share later.
 */
function spreadDelay(place: number, budget: number, ms: number, limit: number, burst: number): number {
  const size = burstSize(limit, burst);
  if (burst >= 1 || place < size) return 0;
  return ((place + 1 - size) * Math.max(0, ms - RESET_RESOLUTION_MS)) / budget;
}
