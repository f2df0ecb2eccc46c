/**
 * Requests that may have reached the service and brought no reading back: how many spend a window.
 * Each spends the window it went in until that window resets. A whole-second reset read against a
 * whole-second `Date` can come early, and a reading no request spent may show a window that never
 * opened, so a request sent with no window current, or so close to its reset as read that the
 * window may have reset, may have opened the next: it spends whichever is current until a window's
 * length has passed since it went. Its .browser.ts twin counts it in its own window alone, as
 * before, in fewer bytes.
 *
 * @module
 */
import { RESET_LATENESS_MS } from './rate-limit.js';

/** Whether a request's spending may span a reset: the browser build's does not ({@link spentUntil} is not asked). */
export const SPANS_RESETS = true;

/** A request sent: its lease, the window it surely went in (0: none), and when (epoch ms). */
export interface Sent {
  readonly lease: number;
  readonly window: number;
  readonly at: number;
}

/** The window a request sent `now` surely goes in: the reading's, unless it may have reset already (0). */
export const sentIn = (reading: { window: number; resetAt: number } | null, now: number): number =>
  reading !== null && now < reading.resetAt - RESET_LATENESS_MS ? reading.window : 0;

/**
 * How many of the requests `lost` spend `window`: those that surely went in it, and those sent
 * after `since` that may have opened it.
 */
export const spentIn = (lost: readonly Sent[], window: number, since: number): number =>
  lost.filter((sent) => sent.window === window || (sent.window === 0 && sent.at > since)).length;

/**
 * With no current reading: when (epoch ms) the next request may go, given the requests out and
 * lost, no more within a window's length than the last `limit` known; `undefined` when it may go now.
 */
export function spentUntil(
  {
    reading,
    windowMs,
    leases,
    lost,
  }: {
    reading: { limit: number } | null;
    windowMs: number;
    leases: Map<string, Sent>;
    lost: readonly Sent[];
  },
  now: number,
): number | undefined {
  const sent = [...leases.values(), ...lost].filter((request) => request.at > now - windowMs);
  return reading !== null && sent.length >= reading.limit
    ? Math.min(...sent.map((request) => request.at)) + windowMs
    : undefined;
}
