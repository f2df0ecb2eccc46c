/**
 * A fleet sharing one key through a real Redis, when a process goes wrong: killed mid-request, its
 * clock a minute off, or a 429 arriving while other processes have requests in flight.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MARGIN_MS } from '../../src/core/transport.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  runAll,
  SHORT_WINDOW_PLAN,
  startFleet,
  startWorkers,
  stopEverything,
  waitUntil,
  withConfig,
} from './support/fleet.js';
import { receivedBetween } from './support/outcome.js';

const PLAN = SHORT_WINDOW_PLAN;
const TIMEOUT_MS = 2_000;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

describe.each(['redis', 'ioredis'] as const)('fleet faults through %s', (store) => {
  it('a worker killed with SIGKILL while holding leases: its capacity returns within the lease time', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN).then(withConfig);
    const [victim, ...survivors] = await startWorkers(4, config);
    if (victim === undefined || survivors[0] === undefined) throw new Error('no workers');
    // The victim's getPet requests hang at the store until the process dies.
    fake.store.injectFault({
      delay: 60_000,
      times: Number.POSITIVE_INFINITY,
      match: { path: /^\/pets\/\d+$/ },
    });
    await survivors[0].run({ calls: 1, concurrency: 1 });
    void victim.run({ calls: 6, concurrency: 6, operation: 'getPet' }).catch(() => undefined);
    await waitUntil(
      () => fake.store.requests.filter((request) => request.path !== '/pets').length === 6,
      10_000,
      'the victim to hold six leases',
    );
    await victim.kill('SIGKILL');
    const killedAt = Date.now();

    const results = await runAll(survivors, { calls: 6, concurrency: 3 });

    // The six leases block their share of the budget until they expire (timeout + 1 s), no longer:
    // the survivors take the windows their calls need, plus one, plus the lease time.
    const afterKill = fake.store.requests.filter((request) => request.receivedAt >= killedAt);
    const leaseMs = TIMEOUT_MS + LEASE_MARGIN_MS;
    expectBudgetKept(afterKill, PLAN, results, {
      extraWindows: Math.ceil(leaseMs / PLAN.windowMs),
      extraMs: leaseMs,
      expectedCalls: 18,
    });
  });

  it('workers whose clocks are 60 s ahead or behind pace as if they agreed', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN).then(withConfig);
    const skews = [60_000, -60_000, 60_000, -60_000];
    const workers = await startWorkers(4, config, { clockSkewMs: (index) => skews[index] });
    workers.forEach((worker, index) => {
      expect(Math.abs(worker.clockAheadMs - (skews[index] ?? 0))).toBeLessThan(5_000);
    });

    const results = await runAll(workers, { calls: 6, concurrency: 3 });

    // A host waiting a minute too long would blow the window count; one sending early would get 429s.
    const outcome = expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 24 });
    expect(outcome.windowsMinimum).toBe(3);
  });

  it('a 429 while others are in flight holds the whole fleet until Retry-After', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN).then(withConfig);
    const workers = await startWorkers(4, config);
    const run = runAll(workers, { calls: 6, concurrency: 3 });
    await waitUntil(() => fake.store.requests.length >= 6, 20_000, 'the first six requests');
    fake.store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });

    const results = await run;
    const requests = fake.store.requests;
    expectBudgetKept(requests, PLAN, results, { extraWindows: 1, extraMs: 2_000, expectedCalls: 24 });
    const refused = requests.filter((request) => request.status === 429);
    expect(refused).toHaveLength(1);
    const at = refused[0]?.receivedAt ?? 0;
    // Requests already on their way may land just after it; none is sent until the 2 s are over.
    expect(receivedBetween(requests, at + 500, at + 1_900)).toEqual([]);
  });
});
