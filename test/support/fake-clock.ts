/**
 * Fake time for tests: timers and the clock are faked, I/O stays real, and {@link settle} moves
 * time on until a call ends, so no test sleeps for real.
 */
import { vi } from 'vitest';
import type { Settled } from '../../src/testing/advance-time.js';
import { advanceUntilSettled } from '../../src/testing/index.js';

/** Fakes the timers and the clock, leaving microtasks and I/O real so fetch still works. */
export function useFakeClock(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
}

/** Noon UTC on a fixed day, so HTTP-dates and reset timestamps come out the same on every run. */
export const START = Date.UTC(2026, 10, 22, 12, 0, 0);

/** Fakes the timers and the clock (I/O stays real) and sets the clock to {@link START}. */
export function startFakeClock(): void {
  useFakeClock();
  vi.setSystemTime(START);
}

/**
 * Awaits `promise` while moving the fake clock on in `stepMs` steps, so every wait on a timer ends
 * without real sleeping: the package's own {@link advanceUntilSettled}, driven by vitest's timers.
 */
export function settle<T>(promise: PromiseLike<T>, stepMs = 50, limitMs = 600_000): Promise<Settled<T>> {
  return advanceUntilSettled(promise, (ms) => vi.advanceTimersByTimeAsync(ms), {
    step: stepMs,
    limit: limitMs,
  });
}
