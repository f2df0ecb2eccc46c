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
 * The service's time when it sent the response, so that waits measured from it do not depend on
 * this host's clock. The `Date` header has whole seconds: when the arrival time falls within its
 * second (give or take the time on the wire), the host's clock agrees and, being finer, is used;
 * otherwise the host's clock is off and the header is used, rounded down so that waits err long.
 * Without a valid header, the arrival time.
 */
export function responseTime(headers: Headers, arrival: number): number {
  const time = Date.parse(headers.get('Date') ?? '');
  if (Number.isNaN(time)) return arrival;
  return arrival >= time && arrival < time + CLOCK_AGREEMENT_MS ? arrival : time;
}
