/**
 * One member of a fleet: a process (or a worker thread) with its own `PetStoreClient` and, when it
 * shares pacing through Redis, its own Redis connection. It imports the SDK the way an application
 * does, by package name (the built dist/, through the package's `exports`), and runs on Node's own
 * type stripping, so starting one costs no compiler.
 *
 * It talks to its parent over IPC (`process.send`) or, as a worker thread, over `parentPort`: it says
 * `ready` once its client exists, runs the calls each `run` message asks for, forwards every warning
 * its logger receives, and exits on `close`.
 *
 * @module
 */
import { parentPort, workerData } from 'node:worker_threads';
import type * as Sdk from '../../../src/index.js';
import type { RateLimitStore } from '../../../src/store/index.js';
import type { CallFailure, FleetWorkerConfig, ToParent, ToWorker } from './protocol.js';

// Package names in variables: the type checker takes the types from src/, Node loads dist/.
const SDK_ENTRY: string = 'animal-store-sdk';
const REDIS_ENTRY: string = 'animal-store-sdk/redis';

const config: FleetWorkerConfig =
  parentPort === null ? JSON.parse(process.env.FLEET_WORKER_CONFIG ?? '{}') : workerData;

const send = (message: ToParent): void => {
  if (parentPort !== null) parentPort.postMessage(message);
  else process.send?.(message);
};

const logger = {
  warn(message: string): void {
    send({ type: 'warning', message: String(message) });
  },
};

interface RedisConnection {
  close(): Promise<unknown>;
}

async function connectRedis(): Promise<{ store: unknown; connection: RedisConnection } | undefined> {
  if (config.store === 'none') return undefined;
  const { redisRateLimitStore } = (await import(REDIS_ENTRY)) as {
    redisRateLimitStore: (redis: unknown, options?: Record<string, unknown>) => unknown;
  };
  const options = { logger, ...config.storeOptions };
  const urls = config.redisUrls ?? [];
  // A Redis that is not there yet: the app goes on while the client keeps trying to connect.
  const connected = (connecting: Promise<unknown>) =>
    config.connectInBackground === true ? void connecting.catch(() => {}) : connecting;
  if (config.store === 'redis') {
    const { createClient, createCluster } = await import('redis');
    const redis = config.cluster
      ? createCluster({ rootNodes: urls.map((url) => ({ url })) })
      : createClient({ url: urls[0] ?? '' });
    // node-redis emits connection errors as events; the store reports Redis trouble to the logger.
    redis.on('error', () => {});
    await connected(redis.connect());
    return { store: redisRateLimitStore(redis, options), connection: { close: () => redis.close() } };
  }
  const { Cluster, Redis } = await import('ioredis');
  const redis = config.cluster
    ? new Cluster(urls.map((url) => ({ host: '127.0.0.1', port: Number(new URL(url).port) })))
    : new Redis(urls[0] ?? '');
  redis.on('error', () => {});
  return { store: redisRateLimitStore(redis, options), connection: { close: () => redis.quit() } };
}

const { PetStoreClient } = (await import(SDK_ENTRY)) as typeof Sdk;
const shared = await connectRedis();
const client = new PetStoreClient({
  apiKey: config.apiKey,
  baseUrl: config.baseUrl,
  timeout: config.timeoutMs,
  maxRetries: config.maxRetries,
  logger,
  deprecationWarnings: false,
  ...(config.pacingBurst === undefined ? {} : { pacingBurst: config.pacingBurst }),
  ...(config.name === undefined ? {} : { headers: { 'X-Fleet-Worker': config.name } }),
  ...(shared === undefined ? {} : { rateLimitStore: shared.store as RateLimitStore }),
});

async function runCalls(message: Extract<ToWorker, { type: 'run' }>): Promise<void> {
  const started = Date.now();
  let next = 0;
  let ok = 0;
  const failures: CallFailure[] = [];
  const call = () =>
    message.operation === 'getPet' ? client.getPet(1) : client.listPets({ limit: message.limit ?? 5 });
  const lane = async () => {
    while (next < message.calls) {
      next += 1;
      try {
        await call();
        ok += 1;
      } catch (error) {
        const failure = error as Partial<Record<'name' | 'message' | 'code', string>> &
          Partial<Record<'status' | 'retryAfterMs', number>>;
        failures.push({
          name: failure.name ?? 'Error',
          message: failure.message ?? String(error),
          status: failure.status,
          code: failure.code,
          retryAfterMs: failure.retryAfterMs,
        });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, message.concurrency) }, lane));
  send({ type: 'ran', id: message.id, ok, failures, elapsedMs: Date.now() - started });
}

const onMessage = (message: ToWorker): void => {
  if (message.type === 'run') void runCalls(message);
  else if (message.type === 'close') {
    void (async () => {
      // A connection to a Redis that is down may never close cleanly: give it a second.
      const closed = shared?.connection.close().catch(() => undefined);
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 1_000))]);
      if (parentPort !== null) parentPort.close();
      else process.exit(0);
    })();
  }
};
if (parentPort !== null) parentPort.on('message', onMessage);
else process.on('message', (message) => onMessage(message as ToWorker));

send({ type: 'ready', pid: process.pid, now: Date.now() });
