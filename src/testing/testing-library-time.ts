/**
 * Testing Library's waits (`findBy*`, `waitFor`) on a test runner's fake clock.
 *
 * @module
 */
import { type AdvanceTimers, advanceUntilSettled, realTurn } from './advance-time.js';

/**
 * The part of Testing Library's configuration that {@link fakeTimeForTestingLibrary} reads and
 * replaces: `@testing-library/dom`'s `Config` (and `@testing-library/react`'s) has these three.
 *
 * @inline
 */
export interface TestingLibraryTimeConfig {
  /** Runs every `waitFor` (and so every `findBy*`). */
  asyncWrapper: (cb: () => unknown) => Promise<unknown>;
  /** Runs each step of the clock that Testing Library takes itself, under Jest's fake timers. */
  unstable_advanceTimersWrapper: (cb: () => unknown) => unknown;
  /** `waitFor`'s default timeout, in milliseconds of the clock the test runs on. */
  asyncUtilTimeout: number;
}

/**
 * Options of {@link fakeTimeForTestingLibrary}.
 *
 * @inline
 */
export interface TestingLibraryTimeOptions {
  /**
   * `findBy*` and `waitFor`'s default timeout, in fake milliseconds. Default 120,000: as long as a
   * call of the client may wait in its queue (`maxQueueWait`), at no cost in real time.
   */
  readonly timeout?: number;
}

/** The longest a call of the client waits in its queue by default (its `maxQueueWait`). */
const DEFAULT_TIMEOUT_MS = 120_000;

/**
 * Lets Testing Library's `findBy*` and `waitFor` run on the test runner's fake clock, while the
 * component's calls go through real I/O (msw, a loopback server): a `Retry-After` wait passes in no
 * real time, and `findBy*` resolves at the first moment the element shows. Give the result to
 * `configure` of `@testing-library/react` (or `@testing-library/dom`), in the test files that use
 * fake timers; `advance` is the runner's step, as for {@link advanceUntilSettled}.
 *
 * Without it, under vitest's fake timers `findBy*` times out after 1,000 fake ms, or never settles
 * (React Testing Library waits for a faked `setTimeout`); under Jest's, Testing Library steps the
 * clock itself but leaves no turn for I/O, so the fake time runs out before a response arrives.
 * With it: where Testing Library does not step the clock (vitest, in Node or in a browser), it is
 * stepped with `advance` while `waitFor` runs, letting I/O run between steps; where it does (Jest),
 * each of its steps is followed by a turn of the event loop. Both only while the runner fakes
 * `setTimeout`. `findBy*`'s default timeout becomes `timeout`: fake milliseconds on a fake clock,
 * real ones otherwise, which is why it belongs in the files that use fake timers.
 *
 * @param advance - Moves the runner's fake clock: `(ms) => vi.advanceTimersByTimeAsync(ms)`.
 * @returns A function of Testing Library's current configuration, for its `configure`.
 * @throws RangeError for a `timeout` that is not a positive number.
 *
 * @example
 * ```ts
 * import { configure } from '@testing-library/react';
 * import { fakeTimeForTestingLibrary } from 'animal-store-sdk/testing';
 * import { afterEach, beforeEach, vi } from 'vitest';
 *
 * configure(fakeTimeForTestingLibrary((ms) => vi.advanceTimersByTimeAsync(ms)));
 * beforeEach(() => {
 *   vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
 * });
 * afterEach(() => vi.useRealTimers());
 * ```
 */
export function fakeTimeForTestingLibrary(
  advance: AdvanceTimers,
  options: TestingLibraryTimeOptions = {},
): (current: Omit<TestingLibraryTimeConfig, 'asyncUtilTimeout'>) => TestingLibraryTimeConfig {
  const timeoutMs = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new RangeError(`timeout must be a positive number of milliseconds, got ${String(timeoutMs)}`);
  }
  return (current) => {
    let ownSteps = 0;
    return {
      asyncUtilTimeout: timeoutMs,
      unstable_advanceTimersWrapper: async (cb) => {
        ownSteps++;
        const result = await current.unstable_advanceTimersWrapper(cb);
        await realTurn();
        return result;
      },
      asyncWrapper: async (cb) => {
        const before = ownSteps;
        const waiting = current.asyncWrapper(cb);
        // Testing Library takes its first step at once when it steps the clock itself (under Jest,
        // it sees `jest`); stepping here too would move the clock twice as fast as it checks.
        if (!clockIsFake() || ownSteps !== before) return waiting;
        const { value, error } = await advanceUntilSettled(waiting, advance);
        if (error !== undefined) throw error;
        return value;
      },
    };
  };
}

/**
 * Whether `setTimeout` is faked: @sinonjs/fake-timers (behind vitest's and Jest's fake timers)
 * marks the functions it installs with their `clock`, which Testing Library reads too.
 */
function clockIsFake(): boolean {
  return Object.hasOwn(globalThis.setTimeout, 'clock');
}
