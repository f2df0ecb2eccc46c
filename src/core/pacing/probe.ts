/**
 * Probing through silence. A request that went and brought no reading back (its answer lost,
 * stalled or cut, its connection failed, it timed out or was aborted after it was sent) may have
 * been counted by the service: a store counts it as spent in the window it went in, and lets the
 * requests after it go one at a time, each after a jittered exponential backoff, until a reading
 * returns (TCP's answer to silence, RFC 6298). The Redis store's script has the same rule in Lua.
 *
 * @module
 */
import { withJitter } from '../request/retry.js';

/** The first probe's backoff after a silent request, doubled for each one after it, up to the cap. */
export const PROBE_BACKOFF = Object.freeze({ baseMs: 500, capMs: 30_000 });

/** How long the next probe waits after `silences` silent requests in a row; `jitter` in [0, 1). */
export function probeBackoffMs(silences: number, jitter: number): number {
  const step = Math.min(PROBE_BACKOFF.capMs, PROBE_BACKOFF.baseMs * 2 ** (silences - 1));
  return Math.round(withJitter(step, () => jitter));
}

/**
 * Requests sent with no current reading since the last window known reset: no more than that
 * window's `limit` go in one window's length (the longest reset a reading showed).
 */
export interface BlindWindow {
  /** When the first of them went (store clock, ms), and how many went. */
  readonly since: number;
  readonly sent: number;
}

/**
 * How long a request with no current reading waits before it may go (0: now), so that no window
 * gets more than the last `limit` known; `windowMs` 0 when no reading ever showed one.
 */
export function blindWaitMs(
  blind: BlindWindow | undefined,
  limit: number,
  windowMs: number,
  now: number,
): number {
  if (blind === undefined || windowMs === 0 || blind.sent < limit) return 0;
  return Math.max(0, blind.since + windowMs - now);
}

/** The blind window after one more request goes at `now`. */
export function blindSent(blind: BlindWindow | undefined, windowMs: number, now: number): BlindWindow {
  return blind === undefined || now >= blind.since + windowMs
    ? { since: now, sent: 1 }
    : { since: blind.since, sent: blind.sent + 1 };
}
