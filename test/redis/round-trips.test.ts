/**
 * What the Redis store costs Redis, counted by Redis itself (`INFO commandstats`): one script per
 * sequential call, and a handful of asks, not a poll, for a call that waits on another process's
 * probe however long that probe takes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { type RedisServer, rawCommand, startRedisServer } from '../support/redis-server.js';
import { CLIENT_KINDS, connect } from './support/clients.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

/** Scripts and transactions Redis ran since the last `CONFIG RESETSTAT`: the store's round trips. */
async function scriptsRun(): Promise<number> {
  const info = await rawCommand(server.port, ['INFO', 'commandstats']);
  return ['evalsha', 'eval', 'exec'].reduce(
    (sum, command) => sum + Number(new RegExp(`cmdstat_${command}:calls=(\\d+)`).exec(info)?.[1] ?? 0),
    0,
  );
}

/** A process of its own: a connection, a store on it, and a client of the fake on that store. */
async function processOn(kind: (typeof CLIENT_KINDS)[number], fake: ReturnType<typeof createFakePetStore>) {
  const connection = await connect(kind, server.url);
  const store = redisRateLimitStore(connection.client, { logger: { warn: () => {} } });
  const client = new PetStoreClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: fake.baseUrl,
    fetch: fake.fetch,
    logLevel: 'off',
    rateLimitStore: store,
  });
  return { connection, store, client };
}

describe.each(CLIENT_KINDS)('the Redis store on %s', (kind) => {
  it('runs one script per sequential call: each release rides on the next acquire', async () => {
    // A budget so large that the calls below, in a second or so, stay within the burst spreading allows.
    const fake = createFakePetStore({ apiKeys: { [DEFAULT_API_KEY]: 'enterprise' } });
    const { connection, client } = await processOn(kind, fake);
    try {
      for (let i = 0; i < 5; i++) await client.listPets();
      await new Promise((resolve) => setImmediate(resolve)); // the warm-up's last release, on its own
      await rawCommand(server.port, ['CONFIG', 'RESETSTAT']);

      const calls = 40;
      for (let i = 0; i < calls; i++) await client.listPets();
      await new Promise((resolve) => setImmediate(resolve)); // the last release goes on its own

      // One per call, and the releases no acquire carried: the first after the pause above, the last,
      // and, on a busy machine, one now and then whose next call came a turn of the event loop too
      // late. Two round trips per call (acquire, then release) would be 80.
      const scripts = await scriptsRun();
      expect(scripts).toBeGreaterThanOrEqual(calls);
      expect(scripts).toBeLessThanOrEqual(calls * 1.5);
    } finally {
      await connection.command('FLUSHALL');
      await connection.close();
    }
  });

  it('asks a few times, not every few milliseconds, while another process’s probe is out for 2 s', async () => {
    const fake = createFakePetStore();
    const prober = await processOn(kind, fake);
    const waiter = await processOn(kind, fake);
    try {
      // The first request of the key goes alone to learn the budget, and takes 2 s to come back.
      const scope = { baseUrl: `${fake.baseUrl}/`, apiKey: DEFAULT_API_KEY };
      const probe = await prober.store.acquire(scope, { leaseMs: 30_000, pacing: true });
      if (!probe.granted) throw new Error(`expected the probe's lease, got ${JSON.stringify(probe)}`);
      await rawCommand(server.port, ['CONFIG', 'RESETSTAT']);

      const waiting = waiter.client.listPets();
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const asked = await scriptsRun();
      await prober.store.release(scope, probe.lease, {
        reading: { limit: 60, remaining: 59, resetInMs: 60_000, window: Math.ceil(Date.now() / 1000) + 60 },
      });
      await waiting;

      // A poll every 25 ms would have asked 80 times; a wait that grows with the probe's age, about 10.
      expect(asked).toBeGreaterThanOrEqual(1);
      expect(asked).toBeLessThanOrEqual(20);
    } finally {
      await prober.connection.command('FLUSHALL');
      await prober.connection.close();
      await waiter.connection.close();
    }
  }, 30_000);
});
