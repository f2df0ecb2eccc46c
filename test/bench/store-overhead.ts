/**
 * What sharing pacing through Redis costs per call: the same client with the default in-process
 * store and with `redisRateLimitStore` on node-redis and ioredis, on one redis-server and on a
 * three-master Redis Cluster (all on loopback), calling the fake store's loopback server (limits no
 * run reaches, so no 429) in alternating rounds. Beside each client: a bare PING's round trip on
 * the same connection (for a cluster, to the node that holds the key), both alone in a loop and
 * made before each call of the in-process client, in the same rounds (what one round trip adds to
 * a call, in the call's rhythm); and how many scripts and transactions Redis ran per call
 * (`evalsha`, `eval` and `exec` in `INFO commandstats`, over every node).
 *
 * @module
 */
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import {
  type RedisServer,
  rawCommand,
  startRedisCluster,
  startRedisServer,
} from '../support/redis-server.js';
import { BENCH_API_KEY } from './constants.js';
import type { LoopbackServer } from './start-loopback-server.js';
import { alternate, type Contender, medianRoundRatio, throughput } from './timing.js';

/** The contender every ratio is taken against. */
export const IN_PROCESS = 'in-process store';

/** Where Redis ran. */
export type Topology = 'single node' | '3-master cluster';

/** One Redis client's figures on one topology. */
export interface StoreContenderResult {
  readonly client: 'redis' | 'ioredis';
  /** A PING's round trip on the store's connection, in microseconds (mean of sequential PINGs). */
  readonly pingMicroseconds: number;
  /** Sequential: what a PING on that connection before each in-process call adds to it, in microseconds. */
  readonly pingAddedMicrosecondsPerCall: number;
  /** Sequential: wall time per call minus the in-process store's, in microseconds. */
  readonly addedMicrosecondsPerCall: number;
  /** Sequential: `evalsha` + `eval` + `exec` Redis ran, per call. */
  readonly roundTripsPerCall: number;
  /** 50 concurrent: the same, per call. */
  readonly concurrentRoundTripsPerCall: number;
  readonly sequentialCallsPerSecond: number;
  readonly concurrentCallsPerSecond: number;
  /** The median, over rounds, of the 50-concurrent throughput against the in-process store's. */
  readonly concurrentMedianRoundRatio: number;
}

/** A topology's figures. */
export interface StoreOverheadResult {
  readonly topology: Topology;
  readonly inProcess: {
    readonly sequentialCallsPerSecond: number;
    readonly concurrentCallsPerSecond: number;
  };
  readonly results: StoreContenderResult[];
}

const LIMIT = 5;
const CONCURRENT = 50;
const PINGS = 2_000;
/** Sequential calls whose scripts are counted, per client. */
const COUNTED_CALLS = 1_000;

/** A connected client as the section drives it. */
interface BenchClient {
  readonly name: 'redis' | 'ioredis';
  readonly store: ReturnType<typeof redisRateLimitStore>;
  /** One PING on the connection the store's script goes through (`key` picks a cluster's node). */
  ping(key: string, port: number): Promise<unknown>;
  close(): Promise<void>;
}

async function connectAll(topology: Topology, nodes: readonly RedisServer[]): Promise<BenchClient[]> {
  const first = nodes[0] as RedisServer;
  if (topology === 'single node') {
    const nodeRedis = await createClient({ url: first.url }).connect();
    const ioredis = new Redis(first.url);
    return [
      {
        name: 'redis',
        store: redisRateLimitStore(nodeRedis),
        ping: () => nodeRedis.sendCommand(['PING']),
        close: () => nodeRedis.close(),
      },
      {
        name: 'ioredis',
        store: redisRateLimitStore(ioredis),
        ping: () => ioredis.call('PING'),
        close: async () => void ioredis.disconnect(),
      },
    ];
  }
  const nodeRedis = await createCluster({ rootNodes: nodes.map((node) => ({ url: node.url })) }).connect();
  const ioredis = new Cluster(nodes.map((node) => ({ host: '127.0.0.1', port: node.port })));
  await new Promise((resolve) => ioredis.once('ready', resolve));
  return [
    {
      name: 'redis',
      store: redisRateLimitStore(nodeRedis),
      ping: (key) => nodeRedis.sendCommand(key, false, ['PING']),
      close: () => nodeRedis.close(),
    },
    {
      name: 'ioredis',
      store: redisRateLimitStore(ioredis),
      ping: (_key, port) => {
        const node = ioredis.nodes('master').find((candidate) => candidate.options.port === port);
        if (node === undefined) throw new Error(`No ioredis connection to port ${port}`);
        return node.call('PING');
      },
      close: async () => void ioredis.disconnect(),
    },
  ];
}

/** `evalsha` + `eval` + `exec` calls Redis counted so far, over every node. */
async function scriptCalls(nodes: readonly RedisServer[]): Promise<number> {
  let calls = 0;
  for (const node of nodes) {
    const info = await rawCommand(node.port, ['INFO', 'commandstats']);
    for (const command of ['evalsha', 'eval', 'exec']) {
      calls += Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0);
    }
  }
  return calls;
}

/** The node holding the store's keys, and one of them (they share a hash tag). */
async function keyHolder(nodes: readonly RedisServer[]): Promise<{ key: string; port: number }> {
  for (const node of nodes) {
    const key = /animal-store-sdk:\{[^}]+\}:state/.exec(
      await rawCommand(node.port, ['KEYS', 'animal-store-sdk:*']),
    )?.[0];
    if (key !== undefined) return { key, port: node.port };
  }
  throw new Error('The store wrote no keys');
}

async function meanMicroseconds(count: number, call: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 200; i++) await call();
  const started = performance.now();
  for (let i = 0; i < count; i++) await call();
  return ((performance.now() - started) * 1000) / count;
}

async function measureTopology(
  topology: Topology,
  nodes: readonly RedisServer[],
  server: LoopbackServer,
  calls: number,
): Promise<StoreOverheadResult> {
  const clients = await connectAll(topology, nodes);
  try {
    const options = { apiKey: BENCH_API_KEY, baseUrl: server.url };
    const inProcess = new PetStoreClient(options);
    const contenders: Contender[] = [
      { name: IN_PROCESS, call: () => inProcess.listPets({ limit: LIMIT }) },
      ...clients.map((client) => {
        const sdk = new PetStoreClient({ ...options, rateLimitStore: client.store });
        return { name: client.name, call: () => sdk.listPets({ limit: LIMIT }) };
      }),
    ];
    for (const contender of contenders) {
      const pets = await contender.call(0);
      if (!Array.isArray(pets) || pets.length !== LIMIT) {
        throw new Error(`${contender.name} got ${String(pets)}`);
      }
    }
    const holder = await keyHolder(nodes);
    const pinging: Contender[] = clients.map((client) => ({
      name: `PING, ${client.name}`,
      call: async () => {
        await client.ping(holder.key, holder.port);
        return inProcess.listPets({ limit: LIMIT });
      },
    }));
    const measured = [];
    for (const concurrency of [1, CONCURRENT]) {
      await server.reset();
      measured.push(
        await alternate(concurrency === 1 ? [...contenders, ...pinging] : contenders, {
          calls,
          rounds: 10,
          concurrency,
          warmup: Math.min(300, calls),
        }),
      );
    }
    const [sequential, concurrent] = measured as [
      Awaited<ReturnType<typeof alternate>>,
      Awaited<ReturnType<typeof alternate>>,
    ];
    const byName = (entries: typeof sequential, name: string) => {
      const entry = entries.find((candidate) => candidate.name === name);
      if (entry === undefined) throw new Error(`${name} was not measured`);
      return entry;
    };
    const base = { sequential: byName(sequential, IN_PROCESS), concurrent: byName(concurrent, IN_PROCESS) };
    const results: StoreContenderResult[] = [];
    for (const [index, client] of clients.entries()) {
      const contender = contenders[index + 1] as Contender;
      const counted = async (concurrency: number) => {
        const before = await scriptCalls(nodes);
        let next = 0;
        await Promise.all(
          Array.from({ length: concurrency }, async () => {
            while (next < COUNTED_CALLS) await contender.call(next++);
          }),
        );
        return ((await scriptCalls(nodes)) - before) / COUNTED_CALLS;
      };
      const seq = byName(sequential, client.name);
      const conc = byName(concurrent, client.name);
      const pinged = byName(sequential, `PING, ${client.name}`);
      results.push({
        client: client.name,
        pingMicroseconds: await meanMicroseconds(PINGS, () => client.ping(holder.key, holder.port)),
        pingAddedMicrosecondsPerCall: ((pinged.ms - base.sequential.ms) * 1000) / pinged.calls,
        addedMicrosecondsPerCall: ((seq.ms - base.sequential.ms) * 1000) / seq.calls,
        roundTripsPerCall: await counted(1),
        concurrentRoundTripsPerCall: await counted(CONCURRENT),
        sequentialCallsPerSecond: throughput(seq),
        concurrentCallsPerSecond: throughput(conc),
        concurrentMedianRoundRatio: medianRoundRatio(conc, base.concurrent),
      });
    }
    return {
      topology,
      inProcess: {
        sequentialCallsPerSecond: throughput(base.sequential),
        concurrentCallsPerSecond: throughput(base.concurrent),
      },
      results,
    };
  } finally {
    for (const client of clients) await client.close().catch(() => undefined);
  }
}

/** Measures the in-process store against the Redis store, both clients, one node and a cluster. */
export async function measureStoreOverhead(
  server: LoopbackServer,
  calls: number,
): Promise<StoreOverheadResult[]> {
  const results: StoreOverheadResult[] = [];
  const single = await startRedisServer();
  try {
    results.push(await measureTopology('single node', [single], server, calls));
  } finally {
    await single.stop();
  }
  const cluster = await startRedisCluster();
  try {
    results.push(await measureTopology('3-master cluster', cluster.nodes, server, calls));
  } finally {
    await cluster.stop();
  }
  return results;
}
