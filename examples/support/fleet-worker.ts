/**
 * One process of the fleet example (started by examples/fleet.ts): its own Redis connection, its
 * own client, and one budget shared with every other process on the same key through Redis.
 *
 * @module
 */
import { createClient } from 'redis';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';

const calls = Number(process.env.FLEET_CALLS ?? '8');

const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379' }).connect();
const client = new PetStoreClient({
  apiKey: process.env.PETSTORE_API_KEY,
  baseUrl: process.env.PETSTORE_BASE_URL,
  rateLimitStore: redisRateLimitStore(redis),
});

const started = performance.now();
const settled = await Promise.allSettled(Array.from({ length: calls }, () => client.listPets({ limit: 5 })));
const failed = settled.filter((result) => result.status === 'rejected');
process.send?.({
  succeeded: settled.length - failed.length,
  failures: failed.map((result) => String((result as PromiseRejectedResult).reason)),
  seconds: (performance.now() - started) / 1000,
});
await redis.close();
