/**
 * Admission as a pure judgement: the earliest a call could start, from the budget left, the reset,
 * the window's length and the calls ahead. No timers: time is an argument.
 */
import { describe, expect, it } from 'vitest';
import { Admission } from '../../src/core/queue/admission.js';

const NOW = 1_800_000_000_000;
/** A reading of a 10-request, 10-second window that resets in `resetInMs`. */
const reading = (remaining: number, resetInMs: number, window = 1_800_000_010) => ({
  reading: { limit: 10, remaining, resetInMs, window },
});

describe('the earliest a call could start', () => {
  it('is now while the budget left covers the calls ahead and those in flight', () => {
    const admission = new Admission();
    admission.learn(reading(6, 4_000), NOW);
    expect(admission.earliestStartMs(3, 2, true, NOW)).toBe(0);
  });

  it('is the reset once the calls ahead and in flight spend what is left', () => {
    const admission = new Admission();
    admission.learn(reading(6, 4_000), NOW);
    expect(admission.earliestStartMs(4, 2, true, NOW)).toBe(4_000);
  });

  it('adds a whole window for every limit of calls beyond, once two resets showed its length', () => {
    const admission = new Admission();
    admission.learn(reading(0, 500, 1_800_000_000), NOW - 10_000);
    admission.learn(reading(0, 4_000), NOW);
    // 25 ahead: 10 go at the reset, 10 a window later, the 25th's turn comes in the window after.
    expect(admission.earliestStartMs(25, 0, true, NOW)).toBe(4_000 + 2 * 10_000);
    // Without the window's length, only the reset is certain.
    const fresh = new Admission();
    fresh.learn(reading(0, 4_000), NOW);
    expect(fresh.earliestStartMs(25, 0, true, NOW)).toBe(4_000);
  });

  it('keeps the lowest remaining count of a window, as responses arrive out of order', () => {
    const admission = new Admission();
    admission.learn(reading(2, 4_000), NOW);
    admission.learn(reading(5, 4_000), NOW);
    expect(admission.earliestStartMs(2, 0, true, NOW)).toBe(4_000);
  });

  it('is the end of a cooldown, with pacing off too', () => {
    const admission = new Admission();
    admission.learn({ cooldownMs: 3_000 }, NOW);
    expect(admission.earliestStartMs(0, 0, false, NOW + 1_000)).toBe(2_000);
  });

  it('is now before any reading, and for a window that has reset whose length is unknown', () => {
    const admission = new Admission();
    expect(admission.earliestStartMs(500, 0, true, NOW)).toBe(0);
    admission.learn(reading(0, 1_000), NOW);
    expect(admission.earliestStartMs(500, 0, true, NOW + 2_000)).toBe(0);
  });
});
