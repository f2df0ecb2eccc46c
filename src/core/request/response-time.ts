/**
 * The service's clock as a response shows it, so that waits measured from it do not depend on this
 * host's clock.
 *
 * @module
 */

/**
 * How far past the `Date` header's second a response may arrive and still show that this host's
 * clock agrees with the service's: the rest of that second plus the time on the wire.
 */
const CLOCK_AGREEMENT_MS = 1_500;

/**
 * The service's time when it sent the response. `Date` has whole seconds: an arrival within its
 * second means this host's clock agrees and, being finer, is used; otherwise the header is, so that
 * waits err long. Without a valid header, the arrival time.
 */
export function responseTime(headers: Headers, arrival: number): number {
  const time = Date.parse(headers.get('Date') ?? '');
  if (Number.isNaN(time)) return arrival;
  return arrival >= time && arrival < time + CLOCK_AGREEMENT_MS ? arrival : time;
}
