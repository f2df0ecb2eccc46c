/**
 * The service's clock as a client's responses show it, so that waits measured from it do not
 * depend on this host's clock.
 *
 * @module
 */

/**
 * A client's reader of the service's time when a response arrived, at the earliest, so that no
 * reset measured from it comes early: `Date` has whole seconds, and this host's clock may run ahead
 * of the service's by less than one unseen. Each response's `Date`, less its arrival, is a least
 * offset between the clocks; the greatest seen so far is the skew known. Without a valid `Date`
 * ever seen, the arrival time.
 */
export function serviceClock(): (headers: Headers | undefined, arrival: number) => number {
  let offset = Number.NEGATIVE_INFINITY;
  // `Date` changes once a second: parsed once for the many responses that share it.
  let date: string | undefined;
  let parsed = Number.NaN;
  return (headers, arrival) => {
    const text = headers?.get('Date') ?? '';
    if (text !== date) {
      date = text;
      parsed = Date.parse(text);
    }
    const skew = parsed - arrival;
    if (skew > offset) offset = skew;
    return offset > Number.NEGATIVE_INFINITY ? arrival + offset : arrival;
  };
}
