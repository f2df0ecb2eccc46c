/**
 * What sharing pacing through Redis costs per call: the same client with the default in-process
 * store and with `redisRateLimitStore` (node-redis and ioredis), calling the fake store's loopback
 * server (limits no run reaches, so no 429) in alternating rounds, with a real redis-server on
 * loopback.
 *
 * @module
 */
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { startRedisServer } from '../fleet/support/redis-server.js';
import { BENCH_API_KEY } from './constants.js';
import type { LoopbackServer } from './start-loopback-server.js';
import { alternate, type Contender, medianRoundRatio, throughput } from './timing.js';

/** The contender every ratio is taken against. */
export const IN_PROCESS = 'in-process store';

/** One contender's figures in one case. */
export interface StoreContenderResult {
  readonly name: string;
  readonly calls: number;
  readonly callsPerSecond: number;
  /** Throughput relative to the in-process store's over all rounds. */
  readonly ratioToInProcess: number;
  /** The median, over rounds, of the throughput relative to the in-process store in the same round. */
  readonly medianRoundRatio: number;
  /** Wall time per call minus the in-process store's, in microseconds (sequential: the added latency). */
  readonly addedMicrosecondsPerCall: number;
}

/** A concurrency and its results. */
export interface StoreOverheadResult {
  readonly concurrency: number;
  readonly results: StoreContenderResult[];
}

const CONCURRENCIES = [1, 50];
const LIMIT = 5;

/** Measures the in-process store against the Redis store with both Redis clients. */
export async function measureStoreOverhead(
  server: LoopbackServer,
  calls: number,
): Promise<StoreOverheadResult[]> {
  const redisServer = await startRedisServer();
  const nodeRedis = createClient({ url: redisServer.url });
  const ioredis = new Redis(redisServer.url);
  try {
    await nodeRedis.connect();
    const options = { apiKey: BENCH_API_KEY, baseUrl: server.url };
    const clients: [string, PetStoreClient][] = [
      [IN_PROCESS, new PetStoreClient(options)],
      [
        'Redis store, redis',
        new PetStoreClient({ ...options, rateLimitStore: redisRateLimitStore(nodeRedis) }),
      ],
      [
        'Redis store, ioredis',
        new PetStoreClient({ ...options, rateLimitStore: redisRateLimitStore(ioredis) }),
      ],
    ];
    const contenders: Contender[] = clients.map(([name, client]) => ({
      name,
      call: () => client.listPets({ limit: LIMIT }),
    }));
    for (const contender of contenders) {
      const pets = await contender.call(0);
      if (!Array.isArray(pets) || pets.length !== LIMIT)
        throw new Error(`${contender.name} got ${String(pets)}`);
    }
    const results: StoreOverheadResult[] = [];
    for (const concurrency of CONCURRENCIES) {
      await server.reset();
      const measured = await alternate(contenders, {
        calls,
        rounds: 10,
        concurrency,
        warmup: Math.min(300, calls),
      });
      const base = measured.find((entry) => entry.name === IN_PROCESS);
      if (base === undefined) throw new Error('The in-process contender is missing');
      results.push({
        concurrency,
        results: measured.map((entry) => ({
          name: entry.name,
          calls: entry.calls,
          callsPerSecond: throughput(entry),
          ratioToInProcess: throughput(entry) / throughput(base),
          medianRoundRatio: medianRoundRatio(entry, base),
          addedMicrosecondsPerCall: ((entry.ms - base.ms) * 1000) / entry.calls,
        })),
      });
    }
    return results;
  } finally {
    await nodeRedis.close().catch(() => undefined);
    ioredis.disconnect();
    await redisServer.stop();
  }
}
