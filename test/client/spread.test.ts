/**
 * Spreading a window's budget over the window (`pacingBurst`), on fake time against the fake store's
 * Free plan (60 requests a minute): what a busy client sends just after each reset, and that a client
 * below the plan's rate is not held.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { API_KEY, setup } from './setup.js';

const START = Date.UTC(2026, 10, 22, 12, 0, 0, 250);
const WINDOW_MS = 60_000;

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client on the Free plan; the time (since START) each request reached the store, and its status. */
function freePlan(options: ClientOptions = {}) {
  const sent: { at: number; status: number }[] = [];
  const context = setup(
    {
      ...options,
      fetch: async (input, init) => {
        const at = Date.now() - START;
        const response = await context.store.fetch(input, init);
        sent.push({ at, status: response.status });
        return response;
      },
    },
    { apiKeys: { [API_KEY]: 'free' } },
  );
  return { ...context, sent };
}

/** Advances fake time in 10 ms steps until every promise has settled; the time each one took. */
async function settleAll(promises: Promise<unknown>[]) {
  const took: number[] = [];
  let settled = 0;
  for (const promise of promises) {
    const start = Date.now();
    promise.then(
      () => took.push(Date.now() - start),
      () => took.push(Number.NaN),
    );
    promise.finally(() => settled++).catch(() => {});
  }
  while (settled < promises.length && Date.now() - START < 10 * WINDOW_MS)
    await vi.advanceTimersByTimeAsync(10);
  return took;
}

/** Requests sent in each window: its index by the store's windows, which start with the first request. */
function byWindow(sent: readonly { at: number }[]) {
  const windows: number[][] = [];
  for (const { at } of sent) {
    const index = Math.floor(at / WINDOW_MS);
    windows[index] = [...(windows[index] ?? []), at % WINDOW_MS];
  }
  return windows;
}

describe('spreading the budget over the window', () => {
  it('above the plan, sends a burst at each reset and the rest of the budget evenly over the window', async () => {
    // Waits past the default bound (maxQueueWait, 120 s in all) allowed: the third window's calls wait two minutes and more.
    const { client, sent } = freePlan({ maxQueueWait: 180_000 });
    const took = await settleAll(Array.from({ length: 150 }, () => client.listPets()));

    expect(took.every(Number.isFinite)).toBe(true);
    expect(sent.filter(({ status }) => status === 429)).toEqual([]);
    const windows = byWindow(sent);
    expect(windows.map((window) => window.length)).toEqual([60, 60, 30]);
    for (const window of windows.slice(0, 2)) {
      // The default burst is a quarter of the budget (15), plus the request that learns the budget.
      expect(window.filter((at) => at < 1_000).length).toBeLessThanOrEqual(17);
      // The rest goes out over the window: one every second or so.
      for (let second = 1; second < 60; second++) {
        expect(
          window.filter((at) => at >= second * 1_000 && at < (second + 1) * 1_000).length,
        ).toBeLessThanOrEqual(3);
      }
      expect(Math.max(...window)).toBeGreaterThan(50_000);
    }
  });

  it('with pacingBurst: 1, sends the whole budget as soon as the window opens', async () => {
    // The second window's calls wait its reset, read in whole seconds: a little over a minute.
    const { client, sent } = freePlan({ pacingBurst: 1 });
    await settleAll(Array.from({ length: 120 }, () => client.listPets()));

    const windows = byWindow(sent);
    expect(windows.map((window) => window.length)).toEqual([60, 60]);
    expect(windows.every((window) => window.every((at) => at < 1_000))).toBe(true);
  });

  it('below the plan, holds no call: a steady call every 2.5 s, then bursts as large as the burst allowance every 20 s', async () => {
    const { client, sent } = freePlan();
    const took: number[] = [];
    for (let i = 0; i < 24; i++) {
      took.push(...(await settleAll([client.listPets()])));
      await vi.advanceTimersByTimeAsync(2_500);
    }
    for (let i = 0; i < 4; i++) {
      took.push(...(await settleAll(Array.from({ length: 15 }, () => client.listPets()))));
      await vi.advanceTimersByTimeAsync(20_000);
    }

    expect(sent).toHaveLength(24 + 60);
    // The first of each window waits for no one; a call waits only while the request that learns a
    // new window's budget is out, which the fake store answers at once.
    expect(took.every((ms) => ms === 0)).toBe(true);
  });
});
