/**
 * The Redis store on a real Redis Cluster of three masters, through node-redis's `createCluster`
 * and ioredis's `Cluster`: every key of one base URL + API key in one slot, and the script run on
 * whichever node holds it, loaded there again when that node forgot it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { redisRateLimitStore } from '../../src/redis/index.js';
import type { RateLimitScope, RateLimitStore } from '../../src/store/index.js';
import { type RedisCluster, rawCommand, startRedisCluster } from '../support/redis-server.js';
import { CLIENT_KINDS, type ConnectedClient, connectCluster } from './support/clients.js';

const PACED = { leaseMs: 10_000, pacing: true };
const reading = (remaining: number) => ({ limit: 10, remaining, resetInMs: 5_000, window: 1_800_000_000 });
const scope = (apiKey: string): RateLimitScope =>
  Object.freeze({ baseUrl: 'http://animal-store.test/v1/', apiKey });

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);
afterAll(() => cluster?.stop());

/** Every key the store wrote, by the port of the node that holds it. */
async function keysByNode(): Promise<Map<number, string[]>> {
  const found = new Map<number, string[]>();
  for (const node of cluster.nodes) {
    const reply = await rawCommand(node.port, ['KEYS', 'animal-store-sdk:*']);
    const keys = reply.match(/animal-store-sdk:\{[^}]+\}:\w+/g) ?? [];
    if (keys.length > 0) found.set(node.port, keys);
  }
  return found;
}

async function granted(store: RateLimitStore, at: RateLimitScope): Promise<string> {
  const decision = await store.acquire(at, PACED);
  if (!decision.granted) throw new Error(`expected a lease, got ${JSON.stringify(decision)}`);
  return decision.lease;
}

describe.each(CLIENT_KINDS)('redisRateLimitStore on a Redis Cluster through %s', (kind) => {
  let connection: ConnectedClient;
  const logger = { warn: vi.fn<(message: string) => void>(), info: vi.fn<(message: string) => void>() };
  beforeAll(async () => {
    connection = await connectCluster(kind, cluster.nodes);
  });
  afterEach(async () => {
    logger.warn.mockClear();
    for (const node of cluster.nodes) await rawCommand(node.port, ['FLUSHALL']);
  });
  afterAll(() => connection.close());

  it('keeps every key of one base URL + API key in one slot, on the node that holds it', async () => {
    const store = redisRateLimitStore(connection.client, { logger });
    const at = scope(`sk-cluster-${kind}`);
    await store.release(at, await granted(store, at), { reading: reading(5) });
    await granted(store, at); // left in flight: all three keys exist

    const byNode = await keysByNode();
    expect([...byNode.values()]).toHaveLength(1);
    const [port, keys] = [...byNode.entries()][0] as [number, string[]];
    expect(keys.map((key) => key.split(':').at(-1)).sort()).toEqual(['leases', 'processes', 'state']);
    const slots = await Promise.all(keys.map((key) => rawCommand(port, ['CLUSTER', 'KEYSLOT', key])));
    expect(new Set(slots).size).toBe(1);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('runs its script on every node, and again after any node forgot it (NOSCRIPT)', async () => {
    const store = redisRateLimitStore(connection.client, { logger });
    // Keys enough to land on every node of the three.
    const scopes = Array.from({ length: 12 }, (_, index) => scope(`sk-cluster-${kind}-${index}`));
    for (const at of scopes) await store.release(at, await granted(store, at), { reading: reading(5) });
    expect((await keysByNode()).size).toBe(cluster.nodes.length);

    for (const node of cluster.nodes)
      expect(await rawCommand(node.port, ['SCRIPT', 'FLUSH'])).toBe('+OK\r\n');
    for (const at of scopes) await granted(store, at);
    for (const at of scopes) await granted(store, at);
    // Each scope kept its reading through the flush: of the 5 left, two are out, three more go.
    const first = scopes[0] as RateLimitScope;
    for (let i = 0; i < 3; i++) await granted(store, first);
    expect(await store.acquire(first, PACED)).toMatchObject({ granted: false, reason: 'budget' });
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
