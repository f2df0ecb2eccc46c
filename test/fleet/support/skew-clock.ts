/**
 * Preloaded into a fleet worker (`node --import ./skew-clock.ts`) to set its wall clock off by
 * `FLEET_CLOCK_SKEW_MS` milliseconds: `Date.now()` and `new Date()` read the skewed time, as on a
 * host whose clock is wrong. Timers and `performance.now()` are untouched, as they are on such a host.
 *
 * @module
 */
const skewMs = Number(process.env.FLEET_CLOCK_SKEW_MS ?? '0');
const RealDate = Date;

class SkewedDate extends RealDate {
  constructor(value?: number | string | Date) {
    if (value === undefined) super(RealDate.now() + skewMs);
    else super(value);
  }

  static override now(): number {
    return RealDate.now() + skewMs;
  }
}

globalThis.Date = SkewedDate as DateConstructor;
