/**
 * Fake time for tests: timers and the clock are faked, I/O stays real, and {@link settle} moves
 * time on until a call ends, so no test sleeps for real.
 */
import { vi } from 'vitest';

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

/** How a call ended: its value or its error, and how much fake time it took. */
export interface Settled<T> {
  readonly value: T | undefined;
  readonly error: unknown;
  readonly elapsed: number;
}

/**
 * Awaits `promise` while moving the fake clock on in `stepMs` steps, so every wait on a timer ends
 * without real sleeping. Throws when it has not settled after `limitMs` of fake time.
 */
export async function settle<T>(
  promise: PromiseLike<T>,
  stepMs = 50,
  limitMs = 600_000,
): Promise<Settled<T>> {
  const start = Date.now();
  let done = false;
  const outcome = Promise.resolve(promise).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  void outcome.finally(() => {
    done = true;
  });
  while (!done && Date.now() - start < limitMs) await vi.advanceTimersByTimeAsync(stepMs);
  if (!done) throw new Error(`The call was still pending after ${limitMs} ms of fake time`);
  return { ...(await outcome), elapsed: Date.now() - start };
}
