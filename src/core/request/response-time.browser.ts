/**
 * The service's clock in the browser build: each response's `Date`, which is never after the
 * service's time, else its arrival. A page's schedule estimates no start, so no skew is kept.
 * Same exports.
 *
 * @module
 */
export const serviceClock =
  () =>
  (headers: Headers | undefined, arrival: number): number =>
    Date.parse(headers?.get('Date') ?? '') || arrival;
