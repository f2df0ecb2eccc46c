/**
 * A process that uses the Redis store, closes its Redis connection and then does nothing: it must
 * exit by itself, with nothing of the SDK (a timer, a retry, a subscription) keeping it alive. It
 * imports the package as an application does (the built dist/), and says how far it got on stdout.
 *
 * @module
 */
import type * as Sdk from '../../../src/index.js';
import type * as SdkRedis from '../../../src/redis/index.js';

/** What the test starts it with, in CLOSING_PROCESS as JSON. */
export interface ClosingProcessConfig {
  readonly client: 'redis' | 'ioredis';
  readonly redisUrls: readonly string[];
  readonly cluster: boolean;
  /** Nothing listens at the Redis URL: the store paces alone the whole time. */
  readonly unreachable: boolean;
  readonly baseUrl: string;
  readonly apiKey: string;
}

// Package names in variables: the type checker takes the types from src/, Node loads dist/.
const SDK_ENTRY: string = 'animal-store-sdk';
const REDIS_ENTRY: string = 'animal-store-sdk/redis';

const config: ClosingProcessConfig = JSON.parse(process.env.CLOSING_PROCESS ?? '{}');
const { PetStoreClient } = (await import(SDK_ENTRY)) as typeof Sdk;
const { redisRateLimitStore } = (await import(REDIS_ENTRY)) as typeof SdkRedis;

async function connect(): Promise<{ redis: SdkRedis.RedisClient; close: () => Promise<unknown> }> {
  const [url = ''] = config.redisUrls;
  if (config.client === 'redis') {
    const { createClient, createCluster } = await import('redis');
    const redis = config.cluster
      ? createCluster({ rootNodes: config.redisUrls.map((node) => ({ url: node })) })
      : createClient({ url });
    redis.on('error', () => {});
    const connecting = redis.connect();
    if (config.unreachable) connecting.catch(() => {});
    else await connecting;
    return { redis, close: () => (config.unreachable ? Promise.resolve(redis.destroy()) : redis.close()) };
  }
  const { Cluster, Redis } = await import('ioredis');
  const redis = config.cluster
    ? new Cluster(config.redisUrls.map((node) => ({ host: '127.0.0.1', port: Number(new URL(node).port) })))
    : new Redis(url);
  redis.on('error', () => {});
  return { redis, close: () => (config.unreachable ? Promise.resolve(redis.disconnect()) : redis.quit()) };
}

const { redis, close } = await connect();
const client = new PetStoreClient({
  apiKey: config.apiKey,
  baseUrl: config.baseUrl,
  logLevel: 'off',
  rateLimitStore: redisRateLimitStore(redis, { commandTimeout: 200, retryInterval: 100 }),
});
for (let i = 0; i < 3; i++) await client.listPets({ limit: 1 });
await Promise.all(Array.from({ length: 3 }, () => client.listPets({ limit: 1 })));
process.stdout.write('calls done\n');
await close();
process.stdout.write('closed\n');
