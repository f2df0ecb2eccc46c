/**
 * A fleet sharing one key through a real Redis Cluster of three masters, with node-redis's
 * `createCluster` and ioredis's `Cluster`: paced as one client, and a node restarted mid-run (the
 * one that holds the key, emptied) costs at most one 429 and never a ban.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { type RedisServer, rawCommand } from '../support/redis-server.js';
import { expectBudgetKept } from './support/expectations.js';
import {
  runAll,
  SHORT_WINDOW_PLAN,
  startFleet,
  startWorkers,
  stopEverything,
  waitUntil,
} from './support/fleet.js';

const PLAN = SHORT_WINDOW_PLAN;
/** How long the node stays down: past the cluster's node timeout, so the cluster refuses meanwhile. */
const NODE_DOWN_MS = 2_000;
/** The longest the fleet waits for processes still pacing alone once Redis is back. */
const RECOVERY_MS = 10_000;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

/** The node that holds the store's keys. */
async function keyHolder(nodes: readonly RedisServer[]): Promise<RedisServer> {
  for (const node of nodes) {
    if ((await rawCommand(node.port, ['KEYS', 'animal-store-sdk:*'])).includes('animal-store-sdk:'))
      return node;
  }
  throw new Error('No node holds the fleet’s keys');
}

describe.each(['redis', 'ioredis'] as const)('a fleet on a Redis Cluster through %s', (store) => {
  it('4 processes: every call succeeds, at most one 429, no more windows than needed plus one', {
    timeout: 90_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN, { redisKind: 'cluster' });
    const workers = await startWorkers(4, config());

    const results = await runAll(workers, { calls: 6, concurrency: 3 });

    const outcome = expectBudgetKept(fake.store.requests, PLAN, results, { expectedCalls: 24 });
    expect(outcome.windowsMinimum).toBe(3);
    for (const worker of workers) expect(worker.warnings).toEqual([]);
  });

  it('the node holding the key restarted mid-run, empty: at most one 429, no ban', {
    timeout: 90_000,
  }, async () => {
    const { fake, cluster, config } = await startFleet(store, PLAN, { redisKind: 'cluster' });
    if (cluster === undefined) throw new Error('no cluster');
    const workers = await startWorkers(4, config());
    const run = runAll(workers, { calls: 8, concurrency: 3 }, 60_000);
    await waitUntil(() => fake.store.requests.length >= 10, 20_000, 'the first ten requests');
    const node = await keyHolder(cluster.nodes);
    await node.stop();
    await new Promise((resolve) => setTimeout(resolve, NODE_DOWN_MS));
    await node.start();

    const results = await run;
    expect(
      workers.some((worker) => worker.warnings.some((line) => /Redis is not answering/.test(line))),
    ).toBe(true);
    // While the node is away, and until every process is back (at most 10 s more), each process
    // paces alone on its share: the fleet spends about half of each window's budget (a fifth of 8
    // per process, floored) for up to six windows. Then it shares again.
    expectBudgetKept(fake.store.requests, PLAN, results, {
      extraWindows: 6,
      extraMs: NODE_DOWN_MS + RECOVERY_MS,
      expectedCalls: 32,
    });
  });
});
