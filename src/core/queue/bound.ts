/**
 * A call's time bound: `callTimeout` for its whole life, and `maxQueueWait` for its waits in the
 * queue in all. Pure functions of the bound and the time.
 *
 * @module
 */
import { RESET_LATENESS_MS } from '../pacing/rate-limit.js';

/**
 * The longest wait the service may ask for that the client honours: `maxRetryAfter`, and the two
 * seconds by which whole-second headers may read a wait late (a minute window's reset can read
 * 60.4 s away).
 */
export const honouredWait = (maxRetryAfter: number): number => maxRetryAfter + RESET_LATENESS_MS;

export interface CallBound {
  /** When the call's life ends (epoch ms); `Infinity` without a `callTimeout`. */
  readonly deadline: number;
  /** How long it may still wait in the queue, in all. */
  queueLeftMs: number;
}

export const callBound = (callTimeout: number | undefined, maxQueueWait: number, now: number): CallBound => ({
  deadline: callTimeout === undefined ? Infinity : now + callTimeout,
  queueLeftMs: maxQueueWait,
});

/** An attempt's timeout: its own, or what is left of the call's life if that ends first. */
export const attemptTimeout = ({ deadline }: CallBound, timeout: number, now: number): number =>
  Math.max(1, Math.min(timeout, deadline - now));
