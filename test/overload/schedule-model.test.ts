/**
 * The schedule as a pure judgement: the earliest a call could start, from the budget left, the reset,
 * the window's length and the calls ahead. No timers: time is an argument.
 */
import { describe, expect, it } from 'vitest';
import { Schedule } from '../../src/core/pacing/schedule.js';
import { NOW, reading, startMs } from './support/schedule.js';

describe('the earliest a call could start', () => {
  it('is now while the budget left covers the calls ahead and those in flight', () => {
    const admission = new Schedule();
    admission.learn(reading(6, 4_000), NOW);
    expect(startMs(admission, 3, 2, true, NOW)).toBe(0);
  });

  it('is the reset once the calls ahead and in flight spend what is left', () => {
    const admission = new Schedule();
    admission.learn(reading(6, 4_000), NOW);
    expect(startMs(admission, 4, 2, true, NOW)).toBe(4_000);
  });

  it('adds a whole window for every limit of calls beyond, once two resets showed its length', () => {
    // Read against this host's clock (a reset less its wait is the time read): each window is certain.
    const admission = new Schedule();
    admission.learn(reading(0, 0, 1_799_999_994), NOW - 6_000);
    admission.learn(reading(0, 4_000, 1_800_000_004), NOW);
    // 25 ahead: 10 go at the reset, 10 a window later, the 25th's turn comes in the window after.
    expect(startMs(admission, 25, 0, true, NOW)).toBe(4_000 + 2 * 10_000);
    // Without the window's length, only the reset is certain.
    const fresh = new Schedule();
    fresh.learn(reading(0, 4_000), NOW);
    expect(startMs(fresh, 25, 0, true, NOW)).toBe(4_000);
  });

  it('keeps the lowest remaining count of a window, as responses arrive out of order', () => {
    const admission = new Schedule();
    admission.learn(reading(2, 4_000), NOW);
    admission.learn(reading(5, 4_000), NOW);
    expect(startMs(admission, 2, 0, true, NOW)).toBe(4_000);
  });

  it("keeps a window's reset as first read, so that no call it refused is then served earlier", () => {
    const admission = new Schedule();
    admission.learn(reading(0, 4_000), NOW);
    admission.learn(reading(0, 3_000), NOW);
    expect(startMs(admission, 0, 0, true, NOW)).toBe(4_000);
  });

  it('is the end of a cooldown, with pacing off too', () => {
    const admission = new Schedule();
    admission.learn({ cooldownMs: 3_000 }, NOW);
    expect(startMs(admission, 0, 0, false, NOW + 1_000)).toBe(2_000);
  });

  it('is now before any reading, and for a window that has reset whose length is unknown', () => {
    const admission = new Schedule();
    expect(startMs(admission, 500, 0, true, NOW)).toBe(0);
    admission.learn(reading(0, 1_000), NOW);
    expect(startMs(admission, 500, 0, true, NOW + 2_000)).toBe(0);
  });

  it('counts a request whose answer never came against its window until it resets', () => {
    const schedule = new Schedule();
    schedule.learn(reading(6, 4_000), NOW);
    schedule.spent(2);
    expect(startMs(schedule, 4, 0, true, NOW)).toBe(4_000);
    expect(startMs(schedule, 3, 0, true, NOW)).toBe(0);
  });

  it("takes a window at least as long as its first request's reset less a second, until two resets show it", () => {
    const schedule = new Schedule();
    schedule.learn(reading(9, 10_000, 1_800_000_010), NOW);
    // 9 left, then 10 a window: the 20th call ahead goes in the window after next.
    expect(startMs(schedule, 19, 0, true, NOW)).toBe(10_000 + 9_000);
  });

  it('counts windows after the next a second sooner once a reset was read against a Date', () => {
    // The reset less its wait is not this host's time: the service's clock, read from whole-second
    // Date headers, may prove up to a second ahead of what is known of it, and each window start sooner.
    const schedule = new Schedule();
    schedule.learn(reading(9, 10_600, 1_800_000_010), NOW);
    expect(startMs(schedule, 19, 0, true, NOW)).toBe(10_600 + 8_600);
  });
});
