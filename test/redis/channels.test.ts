/**
 * A Redis outage as a subscriber to the SDK's store channel hears it: the process starts pacing
 * alone when a real redis-server stops, and shares the budget again once it is back.
 */
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { record } from '../channels/support/recorder.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { connect } from './support/clients.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

// Stopping and starting a real redis-server takes seconds on a busy machine.
const OUTAGE_TIMEOUT_MS = 30_000;

it('publishes the fallback when Redis stops answering and the return when it answers again', {
  timeout: OUTAGE_TIMEOUT_MS,
}, async () => {
  const recorder = record();
  const connection = await connect('node-redis', server.url);
  try {
    const store = createFakePetStore();
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
      logLevel: 'off',
      // Without pacing no call waits on a probe lease that a script granted after its reply timed out.
      pacing: false,
      rateLimitStore: redisRateLimitStore(connection.client, {
        commandTimeout: 1_000,
        retryInterval: 200,
      }),
    });
    await client.listPets();
    expect(recorder.of('store')).toEqual([]);

    await server.stop();
    await client.listPets();
    expect(recorder.of('store')).toEqual([
      {
        event: 'fallback',
        store: 'Redis',
        baseUrl: `${store.baseUrl}/`,
        share: 0.5, // 1 / (1 + 1): one process used the key lately, as Redis last said
        reason: expect.any(String),
      },
    ]);

    await server.start();
    await vi.waitFor(
      async () => {
        await client.listPets();
        expect(recorder.of('store').map(({ event }) => event)).toEqual(['fallback', 'return']);
      },
      { timeout: 15_000, interval: 250 },
    );
    expect(recorder.json()).not.toContain(DEFAULT_API_KEY);
  } finally {
    recorder.stop();
    await connection.close();
  }
});
