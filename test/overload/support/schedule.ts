/**
 * The schedule's tests' shared terms: how long a call waits by the schedule, and a reading.
 *
 * @module
 */
import type { Schedule } from '../../../src/core/pacing/schedule.js';

/** A fixed `Date.now()` for the pure tests. */
export const NOW = 1_800_000_000_000;

/** How long the call with `ahead` calls before it waits, by the schedule. */
export const startMs = (
  schedule: Schedule,
  ahead: number,
  inFlight: number,
  pacing: boolean,
  now: number,
  burst?: number,
) => schedule.startAt(now, ahead, inFlight, now, Number.POSITIVE_INFINITY, { pacing, burst }) - now;

/** A reading of a 10-request window that resets in `resetInMs`. */
export const reading = (remaining: number, resetInMs: number, window = 1_800_000_010) => ({
  reading: { limit: 10, remaining, resetInMs, window },
});
