/**
 * A call's time bound: `callTimeout` for its whole life, and `maxRetryWait` for its waits in the
 * queue in all. Pure functions of the bound and the time.
 *
 * @module
 */
export interface CallBound {
  /** When the call's life ends (epoch ms); `Infinity` without a `callTimeout`. */
  readonly deadline: number;
  /** How long it may still wait in the queue, in all. */
  queueLeftMs: number;
}

export const callBound = (callTimeout: number | undefined, maxRetryWait: number, now: number): CallBound => ({
  deadline: callTimeout === undefined ? Number.POSITIVE_INFINITY : now + callTimeout,
  queueLeftMs: maxRetryWait,
});

/** An attempt's timeout: its own, or what is left of the call's life if that ends first. */
export const attemptTimeout = ({ deadline }: CallBound, timeout: number, now: number): number =>
  Math.max(1, Math.min(timeout, deadline - now));
