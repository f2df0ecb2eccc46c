/**
 * A fleet on one key through a real Redis spreads each window's budget over the window as one
 * client does: a burst when the window opens, then one request after another, whichever process
 * sends it, rather than every process releasing its waiting calls at the reset in step.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/testing/index.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import { type FleetPlan, runAll, startFleet, startWorkers, stopEverything } from './support/fleet.js';
import { counts, windowStarts } from './support/outcome.js';

// 20 requests per 4 s window: 36 calls need two windows; the default burst is 5 of them.
const PLAN: FleetPlan = { limit: 20, windowMs: 4_000 };
/** What counts as "when the window opens". */
const OPENING_MS = 300;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

/** Each window's requests, as ms since it opened. */
function byWindow(requests: readonly RecordedRequest[]): number[][] {
  const counted = requests.filter(counts);
  return windowStarts(counted, PLAN).map((start) =>
    counted.map((request) => request.receivedAt - start).filter((at) => at >= 0 && at < PLAN.windowMs),
  );
}

describe.each(['redis', 'ioredis'] as const)('a fleet spreading its budget through %s', (store) => {
  it('3 processes, every call at once: a burst at each window’s opening, the rest over the window', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN);
    const workers = await startWorkers(3, config());

    const results = await runAll(workers, { calls: 12, concurrency: 12 });

    expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 36 });
    const [first, second] = byWindow(fake.store.requests);
    for (const window of [first, second]) {
      // The request that learns the budget, a burst of 5, and one or two at the pace (about one
      // per 200 ms); a busy machine only delays requests. Without spreading: all 20 at once.
      expect(window?.filter((at) => at < OPENING_MS).length).toBeLessThanOrEqual(9);
    }
    // The first window's budget spent over most of it, by every process together.
    expect(first).toHaveLength(PLAN.limit);
    expect(Math.max(...(first ?? []))).toBeGreaterThan(1_500);
  });
});

it('with pacingBurst: 1, the same fleet sends a window’s whole budget as it opens', {
  timeout: 60_000,
}, async () => {
  const { fake, config } = await startFleet('redis', PLAN);
  const workers = await startWorkers(3, { ...config(), pacingBurst: 1 });

  const results = await runAll(workers, { calls: 12, concurrency: 12 });

  expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 36 });
  const [first] = byWindow(fake.store.requests);
  expect(first?.filter((at) => at < 1_000).length).toBeGreaterThan(10);
});
