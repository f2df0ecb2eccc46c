/**
 * Admission: the refusal a call gets before it waits, from the schedule's start time for it. A call
 * that cannot start within its bound is refused at once: a fast "no" costs its caller less than a
 * slow one, and spends no budget on a caller who will have left.
 *
 * @module
 */
import type { RateLimitError } from '../../errors.js';
import type { Schedule } from '../pacing/schedule.js';
import { queueFull, tooLate, tooLong } from './refusals.js';

/** A call asking to wait in the queue, and what the queue holds when it asks. */
export interface Asking {
  /** Calls waiting already, and leases granted and not yet handed back. */
  readonly waiting: number;
  readonly leases: number;
  readonly pacing: boolean;
  readonly maxQueued: number;
  /** The longest wait honoured (`maxRetryWait`). */
  readonly maxWait: number;
  /** Now, and the latest the call may start (epoch ms). */
  readonly now: number;
  readonly until: number;
}

/**
 * The refusal for a call that asks to wait, or `undefined` when it may: `maxQueued` wait already,
 * the wait every call faces now is beyond `maxWait`, or the call cannot start by its `until`.
 */
export function refusal(
  schedule: Schedule,
  { waiting, leases, pacing, maxQueued, maxWait, now, until }: Asking,
): RateLimitError | undefined {
  if (waiting >= maxQueued) return queueFull(maxQueued);
  // The wait every call faces now (the reset, a cooldown) beyond maxWait is the service's to answer for.
  const serviceWaitMs = schedule.startAt(0, leases, pacing, now) - now;
  if (serviceWaitMs > maxWait) return tooLong(serviceWaitMs);
  const startMs = waiting === 0 ? serviceWaitMs : schedule.startAt(waiting, leases, pacing, now) - now;
  return startMs > until - now ? tooLate(startMs, until - now) : undefined;
}
