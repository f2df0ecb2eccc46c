/**
 * A client on the Redis store hands its leases back when it closes, so that the other processes of
 * the fleet can spend them at once, even when its Redis connection is closed right after.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { CLIENT_KINDS, connect } from '../redis/support/clients.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
}, 60_000);
afterAll(() => server?.stop());

describe.each(CLIENT_KINDS)('close() on the Redis store, on %s', (kind) => {
  it('leaves no lease in Redis once it resolves, though the connection closes at once', async () => {
    const apiKey = `sk-closing-${kind}`;
    const store = createFakePetStore({ apiKeys: { [apiKey]: { perMinute: 50, perDay: 1_000 } } });
    const [connection, inspector] = [await connect(kind, server.url), await connect(kind, server.url)];
    const client = new PetStoreClient({
      apiKey,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
      rateLimitStore: redisRateLimitStore(connection.client),
    });
    // Back to back: each call's release rides on the next call's script, and the last one waits.
    for (let i = 0; i < 5; i++) await client.listPets({ limit: 1 });
    await client.close();
    await connection.close();
    expect(await inspector.command('KEYS', '*:state')).toHaveLength(1);
    const [key] = (await inspector.command('KEYS', '*:leases')) as string[];
    expect(key === undefined ? 0 : Number(await inspector.command('ZCARD', key))).toBe(0);
    await inspector.command('FLUSHALL');
    await inspector.close();
  });
});
