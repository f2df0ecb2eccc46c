/**
 * A fleet sharing one key through a real Redis, when things go wrong: a process killed mid-request,
 * Redis restarted or down, host clocks a minute off, a 429 while other requests are in flight.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  FLEET_KEY,
  type Fleet,
  type FleetPlan,
  runAll,
  startFleet,
  startWorkers,
  stopEverything,
  waitUntil,
} from './support/fleet.js';
import { receivedBetween } from './support/outcome.js';

const PLAN: FleetPlan = { limit: 8, windowMs: 2_000 };
const TIMEOUT_MS = 2_000;
/** How long a lease outlives its attempt's timeout. */
const LEASE_MARGIN_MS = 1_000;
/** How long Redis stays down in the outage test. */
const OUTAGE_MS = PLAN.windowMs + 500;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

/** The fleet with its workers' configuration on the fleet's key. */
function withConfig(fleet: Fleet) {
  return { ...fleet, config: fleet.config() };
}

/** The same, for a test that needs the fleet's redis-server. */
function withRedis(fleet: Fleet) {
  if (fleet.redis === undefined) throw new Error('The fleet has no redis-server');
  return { ...withConfig(fleet), redis: fleet.redis };
}

describe.each(['redis', 'ioredis'] as const)('fleet faults through %s', (store) => {
  it('a worker killed with SIGKILL while holding leases: its capacity returns within the lease time', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN).then(withConfig);
    const [victim, ...survivors] = await startWorkers(4, config);
    if (victim === undefined || survivors[0] === undefined) throw new Error('no workers');
    // The victim's getPet requests hang at the store until the process dies.
    fake.store.injectFault({
      delayMs: 60_000,
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

  it('Redis restarted mid-run, empty and without its scripts: no burst of 429s, no ban', {
    timeout: 60_000,
  }, async () => {
    const { redis, fake, config } = await startFleet(store, PLAN).then(withRedis);
    const workers = await startWorkers(4, config);
    const run = runAll(workers, { calls: 8, concurrency: 3 });
    await waitUntil(() => fake.store.requests.length >= 10, 20_000, 'the first ten requests');
    await redis.stop();
    await redis.start();

    const results = await run;
    // Without a reading after the restart the fleet learns the budget with one request.
    expectBudgetKept(fake.store.requests, PLAN, results, { extraWindows: 1, expectedCalls: 32 });
  });

  it('scripts flushed mid-run (NOSCRIPT): every call succeeds, nothing to warn about', {
    timeout: 60_000,
  }, async () => {
    const { redis, fake, config } = await startFleet(store, PLAN).then(withRedis);
    const workers = await startWorkers(3, config);
    const run = runAll(workers, { calls: 6, concurrency: 3 });
    await waitUntil(() => fake.store.requests.length >= 6, 20_000, 'the first six requests');
    expect(await redis.command('SCRIPT', 'FLUSH')).toBe('+OK\r\n');

    const results = await run;
    expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 18 });
    for (const worker of workers) expect(worker.warnings).toEqual([]);
  });

  it('Redis down mid-run: each process falls back on a share of the budget, warns, and returns', {
    timeout: 60_000,
  }, async () => {
    const { redis, fake, config } = await startFleet(store, PLAN, {
      storeOptions: { commandTimeoutMs: 250, retryIntervalMs: 300 },
    }).then(withRedis);
    const workers = await startWorkers(3, config);
    const run = runAll(workers, { calls: 10, concurrency: 2 });
    await waitUntil(() => fake.store.requests.length >= 8, 20_000, 'the first eight requests');
    await redis.stop();
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await redis.start();

    const results = await run;
    // Falling back costs windows (each process spends only its share), never a ban.
    expectBudgetKept(fake.store.requests, PLAN, results, {
      extraWindows: 3,
      extraMs: OUTAGE_MS,
      expectedCalls: 30,
    });
    for (const worker of workers) {
      expect(worker.warnings.some((warning) => /redis/i.test(warning))).toBe(true);
      for (const warning of worker.warnings) expect(warning).not.toContain(FLEET_KEY);
    }
    // Back on Redis: the emptied server holds the fleet's state again.
    await workers[0]?.run({ calls: 1, concurrency: 1 });
    expect(await redis.command('KEYS', 'animal-store-sdk:*')).toMatch(/animal-store-sdk:\{/);
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
