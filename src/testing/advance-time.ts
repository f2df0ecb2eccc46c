/**
 * Stepping fake time until a call settles: for tests whose runner's fake timers cannot run a call to
 * its end by themselves, because the call also waits on real I/O (a loopback server, msw's service
 * worker) between its timers.
 *
 * @module
 */
import { warnIfNextTickFaked } from './faked-next-tick.js';
import { describePendingWaits } from './pending-waits.js';

/**
 * Moves a test runner's fake clock forward by `ms`: `vi.advanceTimersByTimeAsync`,
 * `jest.advanceTimersByTimeAsync`, `mock.timers.tick` of `node:test`, or Bun's
 * `jest.advanceTimersByTime`. It may return a promise, which is awaited.
 *
 * @inline
 */
export type AdvanceTimers = (ms: number) => unknown;

/**
 * How {@link advanceUntilSettled} steps.
 *
 * @example
 * ```ts
 * import type { AdvanceOptions } from 'animal-store-sdk/testing';
 *
 * const options: AdvanceOptions = { step: 25, limit: 120_000 };
 * ```
 */
export interface AdvanceOptions {
  /** Fake milliseconds per step; each step also lets real I/O run. Default 50. */
  readonly step?: number;
  /** Fake milliseconds after which it gives up and throws. Default 600,000 (ten minutes). */
  readonly limit?: number;
}

/**
 * How a call ended: its value or its error, and how long it took on the clock the test fakes.
 *
 * @example
 * ```ts
 * import type { Settled } from 'animal-store-sdk/testing';
 *
 * const settled: Settled<number> = { value: 1, error: undefined, elapsed: 500 };
 * ```
 */
export interface Settled<T> {
  /** The value the call resolved with; `undefined` when it rejected. */
  readonly value: T | undefined;
  /** What the call rejected with; `undefined` when it resolved. */
  readonly error: unknown;
  /** Milliseconds `Date.now()` moved while it ran: fake ones, when the runner fakes `Date`. */
  readonly elapsed: number;
}

/**
 * Awaits `promise` while moving the runner's fake clock forward in small steps, letting real I/O run
 * between them, so retries, `Retry-After` waits and rate-limit windows pass in no real time and the
 * call ends at the first moment it can. A runner's "run all timers" would instead jump to the
 * client's 60 s `timeout` before a response that travels through real I/O arrives. It never
 * rejects with the call's error: it returns it, with the value and the time taken.
 *
 * @throws RangeError for a step or a limit that is not a positive number; Error when the call is
 * still pending after `limit` of fake time.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { advanceUntilSettled, createFakePetStore } from 'animal-store-sdk/testing';
 * import { expect, it, vi } from 'vitest';
 *
 * it('waits out a 429', async () => {
 *   vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
 *   const store = createFakePetStore();
 *   store.injectFault({ status: 429, headers: { 'Retry-After': '8' } });
 *   const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: store.baseUrl, fetch: store.fetch });
 *
 *   const { value, elapsed } = await advanceUntilSettled(client.listPets(), (ms) => vi.advanceTimersByTimeAsync(ms));
 *
 *   expect(value).toEqual([]);
 *   expect(elapsed).toBeGreaterThanOrEqual(8_000);
 *   vi.useRealTimers();
 * });
 * ```
 */
export async function advanceUntilSettled<T>(
  promise: PromiseLike<T>,
  advance: AdvanceTimers,
  options: AdvanceOptions = {},
): Promise<Settled<T>> {
  const stepMs = positive('step', options.step ?? 50);
  const limitMs = positive('limit', options.limit ?? 600_000);
  warnIfNextTickFaked();
  const start = Date.now();
  let done = false;
  const outcome = Promise.resolve(promise).then(
    (value) => ({ value, error: undefined }),
    (error: unknown) => ({ value: undefined, error }),
  );
  void outcome.finally(() => {
    done = true;
  });
  let advanced = 0;
  while (!done && advanced < limitMs) {
    const stepped = advance(stepMs);
    // An asynchronous step (vitest's, Jest's) lets the event loop run between the timers it fires; a
    // synchronous one (node:test's, Bun's) does not, so a turn is taken here. Not after both: in a
    // page, extra turns let fake time run ahead of msw's service worker while it answers.
    if (isPromiseLike(stepped)) await stepped;
    else await realTurn();
    advanced += stepMs;
  }
  if (!done) {
    const waits = describePendingWaits();
    throw new Error(
      `The call was still pending after ${limitMs} ms of fake time${waits === '' ? '' : `; pending waits: ${waits}`}`,
    );
  }
  return { ...(await outcome), elapsed: Date.now() - start };
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

function positive(name: string, value: number): number {
  if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) {
    throw new RangeError(`${name} must be a positive number of milliseconds, got ${String(value)}`);
  }
  return value;
}

/**
 * One turn of the real event loop, past its I/O: `setImmediate` runs after the loop has polled
 * sockets (Node, Bun, Deno), where a `MessageChannel` message may come first (Bun). Raced against a
 * few `MessageChannel` turns, which no runner's fake timers replace, in case the runner fakes
 * `setImmediate` too (`node:test` with every API mocked).
 */
export async function realTurn(): Promise<void> {
  if (typeof setImmediate !== 'function') return messageTurns(1);
  await Promise.race([new Promise<void>((resolve) => setImmediate(resolve)), messageTurns(20)]);
}

async function messageTurns(count: number): Promise<void> {
  if (typeof MessageChannel !== 'function') return;
  const channel = new MessageChannel();
  try {
    for (let turn = 0; turn < count; turn++) {
      await new Promise<void>((resolve) => {
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(undefined);
      });
    }
  } finally {
    channel.port1.close();
  }
}
