/**
 * A fleet sharing one key through a real Redis, when Redis goes wrong: restarted empty, its scripts
 * flushed; or, against a strict server, killed mid-run and restarted empty, or unreachable from the
 * start, where each process paces alone and none may be banned.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/testing/index.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  FLEET_KEY,
  type FleetPlan,
  type RunResult,
  runAll,
  SHORT_WINDOW_PLAN,
  startFleet,
  startWorkers,
  stopEverything,
  waitUntil,
  withConfig,
  withRedis,
} from './support/fleet.js';
import { refusedByWorker } from './support/outcome.js';

const PLAN = SHORT_WINDOW_PLAN;

/** Resolves at `time` (epoch ms), at once if it has passed. */
function sleepUntil(time: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, time - Date.now())));
}

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
});

/**
 * A strict server: 20 requests per 3 s window, and a key that sends more than 3 requests
 * while limited is banned. Four processes pace alone on their shares while Redis is away.
 */
const STRICT: FleetPlan = { limit: 20, windowMs: 3_000, maxRequestsWhileLimited: 3 };
const OUTAGE_RUN = { calls: 25, concurrency: 3 };
const OUTAGE_RUN_LIMIT_MS = 120_000;

/** Every call succeeded, no worker drew more than one 429, and the key was never banned. */
function expectNoBan(requests: readonly RecordedRequest[], results: readonly RunResult[]): void {
  // The figures of the run, for whoever runs it many times over.
  const refused = Object.fromEntries(refusedByWorker(requests));
  console.info(`429s by process: ${JSON.stringify(refused)}; ${requests.length} requests`);
  const failures = results.flatMap((result) => result.failures);
  expect(
    failures.filter((failure) => failure.code === 'api_key_banned'),
    'never banned',
  ).toEqual([]);
  expect(failures, 'every call succeeds').toEqual([]);
  expect(results.reduce((sum, result) => sum + result.ok, 0)).toBe(4 * OUTAGE_RUN.calls);
  for (const [worker, refused] of refusedByWorker(requests)) {
    expect(refused, `429s drawn by ${worker}`).toBeLessThanOrEqual(1);
  }
}

describe.each(['redis', 'ioredis'] as const)(
  'an outage of Redis with %s, against a strict server',
  (store) => {
    it('Redis killed mid-run and restarted empty: each process paces alone, warns, returns, never banned', {
      timeout: OUTAGE_RUN_LIMIT_MS + 30_000,
    }, async () => {
      const { redis, fake, config } = await startFleet(store, STRICT).then(withRedis);
      const workers = await startWorkers(4, config);
      const started = Date.now();
      const run = runAll(workers, OUTAGE_RUN, OUTAGE_RUN_LIMIT_MS);
      await sleepUntil(started + 2_000);
      await redis.stop();
      await sleepUntil(started + 6_000);
      await redis.start();

      const results = await run;
      expectNoBan(fake.store.requests, results);
      for (const worker of workers) {
        expect(worker.warnings.some((warning) => /Redis is not answering/.test(warning))).toBe(true);
        expect(worker.warnings.some((warning) => /Redis answers again/.test(warning))).toBe(true);
        for (const warning of worker.warnings) expect(warning).not.toContain(FLEET_KEY);
      }
      // Back on Redis: the emptied server holds the fleet's state again.
      await workers[0]?.run({ calls: 1, concurrency: 1 });
      expect(await redis.command('KEYS', 'animal-store-sdk:*')).toMatch(/animal-store-sdk:\{/);
    });

    it('Redis unreachable from the start: each process paces alone on its share, never banned', {
      timeout: OUTAGE_RUN_LIMIT_MS + 30_000,
    }, async () => {
      const { fake, config } = await startFleet(store, STRICT, { redisKind: 'unreachable' }).then(withConfig);
      const workers = await startWorkers(4, config);

      const results = await runAll(workers, OUTAGE_RUN, OUTAGE_RUN_LIMIT_MS);
      expectNoBan(fake.store.requests, results);
      for (const worker of workers) {
        expect(worker.warnings.filter((warning) => /Redis is not answering/.test(warning))).toHaveLength(1);
      }
    });
  },
);
