/**
 * Many processes, one API key, one budget shared through a real Redis: the fleet paces as one
 * client would, with node-redis and with ioredis.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  FLEET_KEY,
  runAll,
  SHORT_WINDOW_PLAN,
  startFleet,
  startWorker,
  startWorkers,
  stopEverything,
} from './support/fleet.js';

// 8 requests per 2 s window: 24 calls need three windows, a run takes a few seconds.
const PLAN = SHORT_WINDOW_PLAN;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

describe.each(['redis', 'ioredis'] as const)('a fleet sharing one key through %s', (store) => {
  it('4 processes: every call succeeds, at most one 429, no more windows than needed plus one', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN, { extraKeys: ['other-key'] });
    const workers = await startWorkers(4, config());

    const results = await runAll(workers, { calls: 6, concurrency: 3 });

    const outcome = expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 24 });
    expect(outcome.windowsMinimum).toBe(3);
    for (const worker of workers) expect(worker.warnings).toEqual([]);
  });

  it('two keys in one Redis never share a budget', { timeout: 60_000 }, async () => {
    const { fake, config } = await startFleet(store, PLAN, { extraKeys: ['other-key'] });
    const workers = [
      ...(await startWorkers(2, config(FLEET_KEY))),
      ...(await startWorkers(2, config('other-key'))),
    ];

    const results = await runAll(workers, { calls: 8, concurrency: 4 });

    // Each key's 16 calls need two windows of its own; sharing one budget would need four.
    const requests = fake.store.requests;
    for (const key of [FLEET_KEY, 'other-key']) {
      const own = requests.filter((request) => request.headers.authorization === `Bearer ${key}`);
      const outcome = expectBudgetKept(own, PLAN, []);
      expect(outcome.succeeded).toBe(16);
      expect(outcome.windowsMinimum).toBe(2);
    }
    expect(results.flatMap((result) => result.failures)).toEqual([]);
  });
});

describe('a fleet of processes and worker threads', () => {
  it('paces forked processes and worker threads of one process as one', { timeout: 60_000 }, async () => {
    const { fake, config } = await startFleet('redis', PLAN);
    const workers = [
      ...(await startWorkers(2, config())),
      await startWorker(config(), { thread: true }),
      await startWorker(config(), { thread: true }),
    ];
    expect(workers.map((worker) => worker.kind)).toEqual(['process', 'process', 'thread', 'thread']);

    const results = await runAll(workers, { calls: 5, concurrency: 3 });

    const outcome = expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 20 });
    expect(outcome.windowsMinimum).toBe(3);
  });
});
