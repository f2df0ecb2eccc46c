/**
 * The Redis {@link RateLimitStore}: one budget and one cooldown per base URL + API key for every
 * process that shares the Redis, wrapped in {@link withFallback} for the times Redis does not answer.
 *
 * @module
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Logger } from '../core/log.js';
import { withFallback } from '../core/pacing/fallback-store.js';
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitFleet,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from '../core/pacing/rate-limit-store.js';
import {
  ACCEPTED_CLIENTS,
  commandSender,
  type RedisClient,
  type ScriptRunner,
  scriptRunner,
} from './connection.js';
import { PACE } from './scripts/pace.js';

/**
 * Options of {@link redisRateLimitStore}.
 *
 * @example
 * ```ts
 * import type { RedisRateLimitStoreOptions } from 'animal-store-sdk/redis';
 *
 * const options: RedisRateLimitStoreOptions = { prefix: 'billing-app', commandTimeout: 300, fallbackShare: 0.2 };
 * ```
 */
export interface RedisRateLimitStoreOptions {
  /** The start of every key the store writes. Default: `'animal-store-sdk'`. */
  prefix?: string | undefined;
  /**
   * How long a Redis command may take before the store treats Redis as unreachable and paces in
   * this process instead. Default: 500 ms.
   */
  commandTimeout?: number | undefined;
  /**
   * While Redis is unreachable, the share (above 0, at most 1) of each window's budget this process
   * may spend alone. Default: 1 / (N + 1), N the most processes that used the store for the same key
   * in the last minute, as Redis last said; 1/5 when Redis never answered.
   */
  fallbackShare?: number | undefined;
  /** While Redis is unreachable, how often it is tried again, in ms. Default: 1,000. */
  retryInterval?: number | undefined;
  /**
   * Where the fallback (`warn`, once per outage) and the recovery (`info`, else `warn`) are
   * reported. Default: the logger, at the log level, of the client whose request noticed.
   */
  logger?: Logger | undefined;
}

const DEFAULTS = { prefix: 'animal-store-sdk', commandTimeout: 500 } as const;

/** A lease this process holds: when it was granted, whether its request learns the budget, its window, its number. */
interface Held {
  readonly at: number;
  readonly probe: boolean;
  readonly expiresAt: number;
  readonly window: string;
  readonly grant: string;
}

/** How many leases held before those long expired are dropped (their releases never came). */
const HELD_PRUNE_SIZE = 1_024;

/** How this process has been calling on one scope, for folding releases into acquires. */
interface Rhythm {
  /** A release waiting for the next acquire to carry it: the script's arguments for it. */
  unsent: string[] | undefined;
  /** The last release was followed by an acquire in the same turn of the event loop. */
  backToBack: boolean;
  /** A release went this turn (until the next turn): an acquire now makes the calls back to back. */
  releasedThisTurn: boolean;
  /**
   * Leases of scripts that failed: a client that queued such a script while disconnected may still
   * run it once Redis is back, so the next script drops them again, reading and all.
   */
  stale: string[];
}

/** The most stale leases kept for the next script; older ones are left to expire. */
const STALE_LEASES = 32;

/**
 * The store itself: every decision is one script on Redis, carrying the release not yet sent; a
 * Redis that does not answer is an error, which {@link withFallback} turns into pacing in the process.
 */
class RedisRateLimitStore implements RateLimitStore {
  readonly #run: ScriptRunner;
  readonly #prefix: string;
  readonly #process = randomUUID();
  readonly #keys = new WeakMap<RateLimitScope, readonly string[]>();
  readonly #rhythms = new WeakMap<RateLimitScope, Rhythm>();
  readonly #held = new Map<string, Held>();
  #nextLease = 0;

  constructor(send: Parameters<typeof scriptRunner>[0], options: RedisRateLimitStoreOptions) {
    this.#prefix = options.prefix ?? DEFAULTS.prefix;
    this.#run = scriptRunner(send, options.commandTimeout ?? DEFAULTS.commandTimeout);
  }

  async acquire(scope: RateLimitScope, request: RateLimitAcquire): Promise<RateLimitDecision> {
    const rhythm = this.#rhythmOf(scope);
    if (rhythm.releasedThisTurn) rhythm.backToBack = true;
    const lease = `${this.#process}:${++this.#nextLease}`;
    const leaseMs = Math.ceil(request.leaseMs);
    const reply = await this.#script(scope, rhythm, this.#takeUnsent(rhythm), [
      lease,
      String(leaseMs),
      request.pacing ? '1' : '0',
      this.#process,
      request.alone === undefined ? '' : String(Math.ceil(request.alone.ms)),
      String(request.alone?.processes ?? 0),
      String(Math.ceil(request.alone?.waitMs ?? 0)),
      request.burst !== undefined && request.burst < 1 ? String(request.burst) : '',
      Number.isFinite(request.within) ? String(Math.floor(request.within as number)) : '',
    ]);
    const [granted, waitMs, reason, processes, aloneMs, window, limit, remaining, resetInMs, grant] = (
      reply as unknown[]
    ).map(String) as [string, string, string, string, string, string, string, string, string, string];
    const fleet: RateLimitFleet = {
      processes: Number(processes),
      ...(Number(aloneMs) > 0 && { aloneMs: Number(aloneMs) }),
      ...(window !== '' && {
        reading: {
          limit: Number(limit),
          remaining: Number(remaining),
          resetInMs: Number(resetInMs),
          window: Number(window),
        },
      }),
    };
    if (granted === '1') {
      const at = performance.now();
      if (this.#held.size >= HELD_PRUNE_SIZE) this.#prune(at);
      this.#held.set(lease, { at, probe: reason === 'probe', expiresAt: at + leaseMs, window, grant });
      return { granted: true, lease, fleet };
    }
    return {
      granted: false,
      waitMs: Number(waitMs),
      reason: reason === 'held' ? 'budget' : (reason as 'cooldown' | 'budget' | 'probe'),
      ...(reason === 'held' && { held: true }),
      fleet,
    };
  }

  /**
   * A release rides on the next acquire while the process calls back to back (one round trip per
   * call), one at a time, and otherwise goes at once, as does one that others wait on: a 429's
   * cooldown (the fleet must stop now) or a probe's answer (the fleet waits to learn the budget).
   * One that no acquire carried goes at the next turn of the event loop, or when the client closes
   * ({@link RedisRateLimitStore.flush}).
   */
  async release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): Promise<void> {
    const held = this.#held.get(lease);
    this.#held.delete(lease);
    const rhythm = this.#rhythmOf(scope);
    const args = releaseArgs(lease, outcome, held);
    const waitedOn = outcome.cooldownMs !== undefined || held?.probe !== false;
    if (!waitedOn && rhythm.backToBack && rhythm.unsent === undefined) {
      rhythm.unsent = args;
      setImmediate(() => this.#flush(scope, rhythm)).unref();
      return;
    }
    const unsent = this.#takeUnsent(rhythm);
    rhythm.releasedThisTurn = true;
    setImmediate(() => {
      rhythm.releasedThisTurn = false;
    }).unref();
    await this.#script(scope, rhythm, [...unsent, args]);
  }

  /** Sends the release waiting for an acquire now: the client is closing. */
  async flush(scope: RateLimitScope): Promise<void> {
    const rhythm = this.#rhythms.get(scope);
    if (rhythm?.unsent !== undefined) await this.#script(scope, rhythm, this.#takeUnsent(rhythm));
  }

  /** Sends a release no acquire carried: the calls were not back to back after all. */
  #flush(scope: RateLimitScope, rhythm: Rhythm): void {
    if (rhythm.unsent === undefined) return;
    rhythm.backToBack = false;
    // A failure leaves the lease to the next script, or to expire; the next acquire reports it.
    this.#script(scope, rhythm, this.#takeUnsent(rhythm)).catch(() => {});
  }

  /**
   * Runs the script with `releases` (each its arguments), after the stale leases, then the acquire's
   * arguments if any. Should it fail, every lease it named is stale.
   */
  async #script(
    scope: RateLimitScope,
    rhythm: Rhythm,
    releases: readonly string[][],
    acquire: readonly string[] = [],
  ): Promise<unknown> {
    const stale = rhythm.stale.splice(0).map((lease) => releaseArgs(lease, {}));
    const all = [...stale, ...releases];
    try {
      return await this.#run(PACE, this.#keysOf(scope), [String(all.length), ...all.flat(), ...acquire]);
    } catch (error) {
      const named = [...all.map(([lease]) => lease as string), ...acquire.slice(0, 1)];
      rhythm.stale = [...rhythm.stale, ...named].slice(-STALE_LEASES);
      throw error;
    }
  }

  /** The release not yet sent, if any, and forgets it. */
  #takeUnsent(rhythm: Rhythm): string[][] {
    const { unsent } = rhythm;
    rhythm.unsent = undefined;
    return unsent === undefined ? [] : [unsent];
  }

  #rhythmOf(scope: RateLimitScope): Rhythm {
    let rhythm = this.#rhythms.get(scope);
    if (rhythm === undefined) {
      rhythm = { unsent: undefined, backToBack: false, releasedThisTurn: false, stale: [] };
      this.#rhythms.set(scope, rhythm);
    }
    return rhythm;
  }

  /** Forgets leases whose release never came (their process paced alone meanwhile). */
  #prune(now: number): void {
    for (const [lease, held] of this.#held) if (held.expiresAt < now) this.#held.delete(lease);
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
      keys = [`${base}:state`, `${base}:leases`, `${base}:processes`, `${base}:lost`];
      this.#keys.set(scope, keys);
    }
    return keys;
  }
}

/** One release as the script's arguments (release.ts); `held` when this process granted the lease. */
function releaseArgs(lease: string, outcome: RateLimitOutcome, held?: Held): string[] {
  const { reading, cooldownMs } = outcome;
  const said =
    reading === undefined ? (outcome.unanswered ?? 'none') : reading === null ? 'unreported' : 'reading';
  return [
    lease,
    said,
    String(reading?.remaining ?? ''),
    String(reading ? Math.ceil(reading.resetInMs) : ''),
    String(reading?.window ?? ''),
    cooldownMs === undefined ? '' : String(Math.ceil(cooldownMs)),
    String(reading?.limit ?? ''),
    held === undefined ? '' : String(Math.round(performance.now() - held.at)),
    held?.window ?? '',
    held?.grant ?? '',
    String(Math.random()),
  ];
}

/**
 * Creates a {@link RateLimitStore} on Redis, so that every process using the same Redis and the
 * same base URL + API key shares one rate-limit budget and one cooldown after a 429: a fleet of
 * web workers, queue consumers or containers on one key is paced as one client and is never
 * banned for overshooting together.
 *
 * Pass a connected client of `redis` (node-redis 6: `createClient`, `createClientPool` or
 * `createCluster`) or `ioredis` 6 (`Redis` or `Cluster`). Each decision is one atomic Lua script
 * timed by Redis's clock, which also carries the release of the process's previous request: a
 * sequential caller pays one round trip per call. Each request in flight holds a lease that expires
 * after the attempt's `timeout` plus a second, so a process killed mid-request frees its share. Keys
 * are named by a SHA-256 of base URL + key (never the key itself), share one hash tag (one Redis
 * Cluster slot) and expire on their own. A 429's wait, however long (a day's quota), holds every
 * process until it ends. When Redis fails (no answer within `commandTimeout`, or any error), the
 * process paces alone on a share of the budget, warns once through `logger` (by default the
 * client's), and returns to Redis when it answers: the store comes wrapped in {@link withFallback}.
 *
 * @param redis - A connected client of node-redis or ioredis, single or cluster. The store never closes it.
 * @param options - Key prefix, timeouts and the fallback's share.
 * @throws TypeError when `redis` is a client the store cannot drive (node-redis's sentinel or
 * legacy-mode client, anything but the clients above), naming those it accepts; or when an option
 * is out of range.
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
  const send = commandSender(redis);
  if (typeof send === 'string') {
    throw new TypeError(`redisRateLimitStore needs ${ACCEPTED_CLIENTS}; ${send}.`);
  }
  const { commandTimeout, fallbackShare, retryInterval, prefix } = options;
  if (commandTimeout !== undefined && !(Number.isFinite(commandTimeout) && commandTimeout > 0)) {
    throw new TypeError(`commandTimeout must be a positive number of milliseconds, got ${commandTimeout}.`);
  }
  if (retryInterval !== undefined && !(Number.isFinite(retryInterval) && retryInterval > 0)) {
    throw new TypeError(`retryInterval must be a positive number of milliseconds, got ${retryInterval}.`);
  }
  if (fallbackShare !== undefined && !(fallbackShare > 0 && fallbackShare <= 1)) {
    throw new TypeError(`fallbackShare must be above 0 and at most 1, got ${fallbackShare}.`);
  }
  if (prefix !== undefined && (prefix === '' || /[{}]/.test(prefix))) {
    throw new TypeError('prefix must be a non-empty string without braces.');
  }
  return withFallback(new RedisRateLimitStore(send, options), {
    name: 'Redis',
    share: fallbackShare,
    retryInterval,
    logger: options.logger,
  });
}
