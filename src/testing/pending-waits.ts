/**
 * Naming the calls a fake clock holds: the client's waits before a retry and the fake's injected
 * delays that are pending now, and a warning when one sits on a fake clock nobody steps.
 *
 * @module
 */
import { type PendingWait, waitRegistry } from '../shared/pending-waits.js';
import { warnIfNextTickFaked } from './faked-next-tick.js';

/**
 * A wait pending now, as {@link pendingWaits} lists it.
 *
 * @example
 * ```ts
 * import type { PendingWaitInfo } from 'animal-store-sdk/testing';
 *
 * const wait: PendingWaitInfo = { reason: 'the client, before retrying', ms: 30_000, waitedMs: 0 };
 * ```
 */
export interface PendingWaitInfo {
  /** Who waits, and for what: `the client, before retrying`, `the fake, holding GET /pets`. */
  readonly reason: string;
  /** How long it waits in all, in milliseconds of the clock timers run on. */
  readonly ms: number;
  /** How long it has waited so far, by `Date.now()`: 0 on a fake clock that has not moved. */
  readonly waitedMs: number;
}

/**
 * The waits pending now in this process, oldest first: the client's backoff before a retry, the wait a
 * fake store's 429 asks of a client (`Retry-After`, until the store's next request), and the fake
 * store's injected delays. On a fake clock they end only when the test steps
 * it; a call that never settles under fake timers is usually one of these. Kept in Node, Bun and Deno;
 * in a browser build the list is empty.
 *
 * @example
 * ```ts
 * import { pendingWaits } from 'animal-store-sdk/testing';
 * import { onTestFailed } from 'vitest';
 *
 * onTestFailed(() => {
 *   for (const wait of pendingWaits()) console.error(`${wait.reason}: ${wait.waitedMs} of ${wait.ms} ms`);
 * });
 * ```
 */
export function pendingWaits(): PendingWaitInfo[] {
  const now = Date.now();
  return [...waitRegistry().waits].map(({ reason, ms, startedAt }) => ({
    reason,
    ms,
    waitedMs: now - startedAt,
  }));
}

/** The pending waits in one sentence each, or `''` when there are none. */
export function describePendingWaits(): string {
  return pendingWaits()
    .map((wait) => `${wait.reason}: waited ${wait.waitedMs} of ${wait.ms} ms`)
    .join('; ');
}

/** Real milliseconds a wait may sit on a fake clock that does not move before it is named. */
const WATCH_MS = 1_000;

/** The platform's own `setTimeout`, taken when this module loads, before a test fakes timers. */
const realSetTimeout = globalThis.setTimeout;

type FakeClock = { readonly now: number };

/** The clock of faked timers (@sinonjs/fake-timers marks the functions it installs with it). */
function fakeClock(): FakeClock | undefined {
  return (globalThis.setTimeout as { clock?: FakeClock }).clock;
}

/**
 * Makes every wait that starts on a fake clock be named, with a warning on the console, when it is
 * still pending a second of real time later and the fake clock has not moved: a test that awaits a
 * call without stepping the clock then says why it hangs, before the runner's "Test timed out". Called
 * by `createFakePetStore` and `connectFakePetStore`; installed once per process.
 */
export function watchFakeClock(later: (check: () => void) => void = afterRealSecond): void {
  const registry = waitRegistry();
  if (registry.onWait !== undefined) return;
  registry.onWait = (wait: PendingWait) => {
    const clock = fakeClock();
    if (clock === undefined) return;
    warnIfNextTickFaked();
    const startedAt = clock.now;
    later(() => {
      if (!registry.waits.has(wait) || fakeClock() !== clock || clock.now !== startedAt) return;
      console.warn(
        `animal-store-sdk/testing: ${wait.reason} waits ${wait.ms} ms on a fake clock that has not moved for ${WATCH_MS} ms of real time. ` +
          'Step the clock (vi.advanceTimersByTimeAsync, jest.advanceTimersByTimeAsync) or await the call with advanceUntilSettled().',
      );
    });
  };
}

/** Runs `check` after {@link WATCH_MS} of real time, without keeping the process alive for it. */
function afterRealSecond(check: () => void): void {
  // Taken over by fake timers already: no real time to measure by.
  if (Object.hasOwn(realSetTimeout, 'clock')) return;
  const timer = realSetTimeout(check, WATCH_MS);
  (timer as { unref?: () => void }).unref?.();
}
