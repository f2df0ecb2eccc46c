/**
 * Which clients the Redis store takes: every client of node-redis 6 and ioredis 6 it can drive is
 * accepted, anything else refused when the store is created; and whatever a client it took throws,
 * the store paces in the process instead.
 */
import { Cluster, Redis } from 'ioredis';
import { createClient, createClientPool, createCluster, createSentinel } from 'redis';
import { describe, expect, it, vi } from 'vitest';
import { type RedisClient, redisRateLimitStore } from '../../src/redis/index.js';
import type { RateLimitScope } from '../../src/store/index.js';

const NOWHERE = 'redis://127.0.0.1:1';
const SCOPE: RateLimitScope = Object.freeze({
  baseUrl: 'http://animal-store.test/v1/',
  apiKey: 'sk-clients',
});
const ACCEPTED =
  /needs a client of node-redis 6 \(createClient, createClientPool or createCluster .*\) or of ioredis 6 \(new Redis or new Cluster/;

describe('the clients redisRateLimitStore takes', () => {
  it.each([
    ['node-redis createClient', () => createClient({ url: NOWHERE })],
    ['node-redis createClientPool', () => createClientPool({ url: NOWHERE })],
    ['node-redis createCluster', () => createCluster({ rootNodes: [{ url: NOWHERE }] })],
    ['ioredis Redis', () => new Redis(NOWHERE, { lazyConnect: true })],
    ['ioredis Cluster', () => new Cluster([{ host: '127.0.0.1', port: 1 }], { lazyConnect: true })],
  ])('takes %s', (_, create) => {
    expect(() => redisRateLimitStore(create() as RedisClient)).not.toThrow();
  });

  it.each([
    [
      "node-redis's createSentinel",
      () => createSentinel({ name: 'primary', sentinelRootNodes: [{ host: '127.0.0.1', port: 1 }] }),
      /createSentinel client/,
    ],
    ["node-redis's legacy mode", () => createClient({ url: NOWHERE }).legacy(), /legacy-mode client/],
    ['an object without commands', () => ({ get: () => 'value' }), /neither call\(\) nor sendCommand\(\)/],
    ['null', () => null, /got null/],
    ['a URL', () => NOWHERE, /got string/],
  ])('refuses %s when the store is created, naming what it takes', (_, create, why) => {
    const creating = () => redisRateLimitStore(create() as unknown as RedisClient);
    expect(creating).toThrow(TypeError);
    expect(creating).toThrow(ACCEPTED);
    expect(creating).toThrow(why);
  });
});

describe('a client that fails in any way', () => {
  it.each([
    [
      'throws at once',
      () => ({
        sendCommand: () => {
          throw new TypeError('this client is broken');
        },
      }),
      /this client is broken/,
    ],
    [
      'rejects with a Redis error',
      () => ({
        call: () =>
          Promise.reject(new Error('WRONGTYPE Operation against a key holding the wrong kind of value')),
      }),
      /WRONGTYPE/,
    ],
    [
      'answers with a callback, not a promise',
      () => ({ sendCommand: () => undefined }),
      /returned no promise/,
    ],
  ])('one that %s: the store paces in the process on its share, and warns once', async (_, create, why) => {
    const logger = { warn: vi.fn<(message: string) => void>(), info: vi.fn<(message: string) => void>() };
    const store = redisRateLimitStore(create() as unknown as RedisClient, { logger });
    const first = await store.acquire(SCOPE, { leaseMs: 10_000, pacing: true });
    await store.release(SCOPE, (first as { lease: string }).lease, {
      reading: { limit: 10, remaining: 9, resetInMs: 30_000, window: 1_800_000_000 },
    });
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await store.acquire(SCOPE, { leaseMs: 10_000, pacing: true }));

    expect(first).toMatchObject({ granted: true });
    // Alone, before Redis ever said how many processes share the key: a fifth of the 9 left.
    expect(decisions.filter((decision) => decision.granted)).toHaveLength(1);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(why);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/pacing in this process on 20% of the rate-limit budget/);
  });
});
