/**
 * The Redis {@link RateLimitStore}: one budget and one cooldown per base URL + API key for every
 * process that shares the Redis, wrapped in {@link withFallback} for the times Redis does not answer.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import { withFallback } from '../core/fallback-store.js';
import { PROBE_POLL_MS } from '../core/in-process-store.js';
import type { Logger } from '../core/log.js';
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitFleet,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from '../core/rate-limit-store.js';
import { isRedisClient, type RedisClient, type ScriptRunner, scriptRunner } from './connection.js';
import { ACQUIRE } from './scripts/acquire.js';
import { RELEASE } from './scripts/release.js';

/**
 * Options of {@link redisRateLimitStore}.
 *
 * @example
 * ```ts
 * import type { RedisRateLimitStoreOptions } from 'animal-store-sdk/redis';
 *
 * const options: RedisRateLimitStoreOptions = { prefix: 'billing-app', commandTimeoutMs: 300, fallbackShare: 0.25 };
 * ```
 */
export interface RedisRateLimitStoreOptions {
  /** The start of every key the store writes. Default: `'animal-store-sdk'`. */
  prefix?: string | undefined;
  /**
   * How long a Redis command may take before the store treats Redis as unreachable and paces in
   * this process instead. Default: 500 ms.
   */
  commandTimeoutMs?: number | undefined;
  /**
   * While Redis is unreachable, the share (above 0, at most 1) of each window's remaining budget
   * this process may spend. Default: 1 / the number of processes that used the store for the same
   * key in the last minute, as Redis last said; 1/4 when Redis never answered.
   */
  fallbackShare?: number | undefined;
  /** While Redis is unreachable, how often it is tried again, in ms. Default: 1,000. */
  retryIntervalMs?: number | undefined;
  /**
   * Where the fallback (`warn`, once per outage) and the recovery (`info`, else `warn`) are
   * reported. Default: the logger, at the log level, of the client whose request noticed.
   */
  logger?: Logger | undefined;
}

const DEFAULTS = { prefix: 'animal-store-sdk', commandTimeoutMs: 500 } as const;

/**
 * The store itself: every decision and outcome is one script on Redis, and a Redis that does not
 * answer is an error, which {@link withFallback} turns into pacing in the process.
 */
class RedisRateLimitStore implements RateLimitStore {
  readonly #run: ScriptRunner;
  readonly #prefix: string;
  readonly #process = randomUUID();
  readonly #keys = new WeakMap<RateLimitScope, readonly string[]>();
  #nextLease = 0;

  constructor(client: RedisClient, options: RedisRateLimitStoreOptions) {
    this.#prefix = options.prefix ?? DEFAULTS.prefix;
    this.#run = scriptRunner(client, options.commandTimeoutMs ?? DEFAULTS.commandTimeoutMs);
  }

  async acquire(scope: RateLimitScope, request: RateLimitAcquire): Promise<RateLimitDecision> {
    const lease = `${this.#process}:${++this.#nextLease}`;
    const reply = await this.#run(ACQUIRE, this.#keysOf(scope), [
      lease,
      String(Math.ceil(request.leaseMs)),
      request.pacing ? '1' : '0',
      this.#process,
      String(PROBE_POLL_MS),
    ]);
    const [granted, waitMs, reason, processes, window, limit, remaining, resetInMs] = reply as [
      number,
      number,
      string,
      number,
      string,
      number,
      number,
      number,
    ];
    const fleet: RateLimitFleet =
      window === ''
        ? { processes: Number(processes) }
        : {
            processes: Number(processes),
            reading: {
              limit: Number(limit),
              remaining: Number(remaining),
              resetInMs: Number(resetInMs),
              window: Number(window),
            },
          };
    if (Number(granted) === 1) return { granted: true, lease, fleet };
    return {
      granted: false,
      waitMs: Number(waitMs),
      reason: reason as 'cooldown' | 'budget' | 'probe',
      fleet,
    };
  }

  async release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): Promise<void> {
    const { reading, cooldownMs } = outcome;
    const said = reading === undefined ? 'none' : reading === null ? 'unreported' : 'reading';
    await this.#run(RELEASE, this.#keysOf(scope).slice(0, 2), [
      lease,
      said,
      String(reading?.remaining ?? ''),
      String(reading ? Math.ceil(reading.resetInMs) : ''),
      String(reading?.window ?? ''),
      cooldownMs === undefined ? '' : String(Math.ceil(cooldownMs)),
      String(reading?.limit ?? ''),
    ]);
  }

  /** The scope's keys, named by a hash of base URL + key under one hash tag: never the key itself. */
  #keysOf(scope: RateLimitScope): readonly string[] {
    let keys = this.#keys.get(scope);
    if (keys === undefined) {
      const id = createHash('sha256')
        .update(`${scope.baseUrl}\n${scope.apiKey}`)
        .digest('base64url')
        .slice(0, 22);
      const base = `${this.#prefix}:{${id}}`;
      keys = [`${base}:state`, `${base}:leases`, `${base}:processes`];
      this.#keys.set(scope, keys);
    }
    return keys;
  }
}

/**
 * Creates a {@link RateLimitStore} on Redis, so that every process using the same Redis and the
 * same base URL + API key shares one rate-limit budget and one cooldown after a 429: a fleet of
 * web workers, queue consumers or containers on one key is paced as one client and is never
 * banned for overshooting together.
 *
 * Pass a connected client of `redis` (node-redis 6) or `ioredis` 6. Each decision is one atomic Lua
 * script timed by Redis's clock; each request in flight holds a lease that expires after the
 * attempt's `timeout` plus a second, so a process killed mid-request frees its share. Keys are named
 * by a SHA-256 of base URL + key (never the key itself), share one hash tag (Redis Cluster) and
 * expire on their own. When Redis does not answer within `commandTimeoutMs`, the process paces itself
 * on a share of the budget, warns once through `logger` (by default the client's), and returns to
 * Redis when it answers: the store comes wrapped in {@link withFallback}.
 *
 * @param redis - A connected node-redis or ioredis client. The store never closes it.
 * @param options - Key prefix, timeouts and the fallback's share.
 * @throws TypeError when `redis` is not a Redis client or an option is out of range.
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { redisRateLimitStore } from 'animal-store-sdk/redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' }).connect();
 * const client = new PetStoreClient({ rateLimitStore: redisRateLimitStore(redis) });
 * await client.listPets();
 * ```
 */
export function redisRateLimitStore(
  redis: RedisClient,
  options: RedisRateLimitStoreOptions = {},
): RateLimitStore {
  if (!isRedisClient(redis)) {
    throw new TypeError('redisRateLimitStore needs a node-redis or ioredis client.');
  }
  const { commandTimeoutMs, fallbackShare, retryIntervalMs, prefix } = options;
  if (commandTimeoutMs !== undefined && !(Number.isFinite(commandTimeoutMs) && commandTimeoutMs > 0)) {
    throw new TypeError(
      `commandTimeoutMs must be a positive number of milliseconds, got ${commandTimeoutMs}.`,
    );
  }
  if (retryIntervalMs !== undefined && !(Number.isFinite(retryIntervalMs) && retryIntervalMs > 0)) {
    throw new TypeError(`retryIntervalMs must be a positive number of milliseconds, got ${retryIntervalMs}.`);
  }
  if (fallbackShare !== undefined && !(fallbackShare > 0 && fallbackShare <= 1)) {
    throw new TypeError(`fallbackShare must be above 0 and at most 1, got ${fallbackShare}.`);
  }
  if (prefix !== undefined && (prefix === '' || /[{}]/.test(prefix))) {
    throw new TypeError('prefix must be a non-empty string without braces.');
  }
  return withFallback(new RedisRateLimitStore(redis, options), {
    name: 'Redis',
    share: fallbackShare,
    retryIntervalMs,
    logger: options.logger,
  });
}
