/**
 * Requests that may have reached the service and brought no reading back: how many spend a window.
 * A whole-second reset read against a whole-second `Date` can come early, and a reading no request
 * spent may show a window that never opened, so such a request may have opened the window after
 * its own: it spends that one too, until a window's length has passed since it went. Its
 * .browser.ts twin counts it in its own window alone, as before, in fewer bytes.
 *
 * @module
 */

/** A request sent: its lease, the window it went in (0: none current), and when (epoch ms). */
export interface Sent {
  readonly lease: number;
  readonly window: number;
  readonly at: number;
}

/** How many of the requests `lost` spend `window`: those that went in it, and those sent after `since`. */
export const spentIn = (lost: readonly Sent[], window: number, since: number): number =>
  lost.filter((sent) => sent.window === window || sent.at > since).length;

/**
 * With no current reading: when (epoch ms) the next request may go, given the requests out and
 * lost, no more within a window's length than the last `limit` known (0: now).
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
): number {
  const sent = [...leases.values(), ...lost].filter((request) => request.at > now - windowMs);
  return reading !== null && sent.length >= reading.limit
    ? Math.min(...sent.map((request) => request.at)) + windowMs
    : 0;
}
