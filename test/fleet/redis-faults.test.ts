/**
 * A fleet sharing one key through a real Redis, when Redis goes wrong: restarted empty, its scripts
 * flushed, or down for a while.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  FLEET_KEY,
  type FleetPlan,
  runAll,
  startFleet,
  startWorkers,
  stopEverything,
  waitUntil,
  withRedis,
} from './support/fleet.js';

const PLAN: FleetPlan = { limit: 8, windowMs: 2_000 };
/** How long Redis stays down in the outage test. */
const OUTAGE_MS = PLAN.windowMs + 500;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

describe.each(['redis', 'ioredis'] as const)('Redis faults with %s', (store) => {
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
    // Falling back costs windows (each process spends only its share), never a ban. While Redis is
    // away each process paces alone, so each may learn a window's end from one refused request.
    expectBudgetKept(fake.store.requests, PLAN, results, {
      extraWindows: 3,
      extraMs: OUTAGE_MS,
      expectedCalls: 30,
      maxRefused: workers.length,
    });
    for (const worker of workers) {
      expect(worker.warnings.some((warning) => /redis/i.test(warning))).toBe(true);
      for (const warning of worker.warnings) expect(warning).not.toContain(FLEET_KEY);
    }
    // Back on Redis: the emptied server holds the fleet's state again.
    await workers[0]?.run({ calls: 1, concurrency: 1 });
    expect(await redis.command('KEYS', 'animal-store-sdk:*')).toMatch(/animal-store-sdk:\{/);
  });
});
