/**
 * A {@link RateLimitStore} that stands in for another while it fails: a shared store (Redis, say)
 * whose backend stops answering makes its process pace alone, on its share of the budget, until the
 * backend answers again. Any store that throws when it cannot reach its state gets this for free.
 *
 * @module
 */
import { publishStore } from '../diagnostics/channels.js';
import type { Logger } from '../log.js';
import { redact } from '../redact.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';
import { ShareAllotment } from './share-allotment.js';

/**
 * Options of {@link withFallback}.
 *
 * @example
 * ```ts
 * import type { FallbackOptions } from 'animal-store-sdk/store';
 *
 * const options: FallbackOptions = { name: 'Postgres', share: 0.25, retryInterval: 2_000 };
 * ```
 */
export interface FallbackOptions {
  /** What the warnings call the store's backend, e.g. `'Redis'`. Default: `'The rate-limit store'`. */
  readonly name?: string | undefined;
  /**
   * While the store fails, the share (above 0, at most 1) of each window's budget this process may
   * spend: of what the window had left when the process first sent in it alone. Every 429 drawn
   * alone halves it until the store answers again. Default: 1 / (N + 1), N the most processes the
   * store said share the key in the last minute (`fleet.processes` of its decisions), 4 when it
   * never said: the shares leave one share unspent, for a process whose view of a window is off.
   */
  readonly share?: number | undefined;
  /** While the store fails, how often one request tries it again, in ms. Default: 1,000. */
  readonly retryInterval?: number | undefined;
  /**
   * Where the fallback (`warn`, once per outage) and the return (`info`, else `warn`) are reported.
   * Default: the logger, at the log level, of the client whose request noticed.
   */
  readonly logger?: Logger | undefined;
}

const DEFAULT_NAME = 'The rate-limit store';
const DEFAULT_RETRY_INTERVAL_MS = 1_000;

/** How many processes to assume share a key before the store ever said. */
const ASSUMED_PROCESSES = 4;

/** How long the largest number of processes the store reported stands, though it later reports fewer. */
const FLEET_MEMORY_MS = 60_000;

/**
 * The longest the processes back from pacing alone wait for those still alone. Each client
 * reconnects on a backoff that grows with the time it has been cut off (up to 5 s for ioredis, 2 s
 * for node-redis, by default), so the others are back about as long after the first as it was
 * alone, plus a retry interval; and a process that went idle meanwhile needs no waiting for, since
 * it tries the store first when it calls again.
 */
const MAX_RECOVERY_WAIT_MS = 10_000;

/** The least a share shrinks to after 429s drawn while pacing alone: a sixteenth. */
const MIN_SCALE = 1 / 16;

/** Leases carry where they came from, so each release goes back to the store that granted it. */
const PRIMARY_LEASE = 'store:';
const LOCAL_LEASE = 'local:';

class FallbackRateLimitStore implements RateLimitStore {
  readonly #primary: RateLimitStore;
  readonly #name: string;
  readonly #share: number | undefined;
  readonly #retryInterval: number;
  readonly #logger: Logger | undefined;
  readonly #allotment = new ShareAllotment(() => this.#currentShare());
  readonly #local = new InProcessRateLimitStore(this.#allotment);
  /** The most processes the store said share a key lately; 0 before it said. */
  #processes = 0;
  #processesSaidAt = 0;
  /** Halved by every 429 drawn while pacing alone; whole again once pacing is shared once more. */
  #scale = 1;
  /** While the store fails: when to try it again. `undefined` while it answers. */
  #retryAt: number | undefined;
  /** While the store fails: since when. */
  #failedAt = 0;
  /** Per scope, until when this process paces alone though the store answers (epoch ms). */
  readonly #aloneUntil = new WeakMap<RateLimitScope, number>();
  /** Releases under way, for {@link flush}. */
  readonly #releasing = new Set<Promise<void>>();

  constructor(primary: RateLimitStore, options: FallbackOptions) {
    this.#primary = primary;
    this.#name = options.name ?? DEFAULT_NAME;
    this.#share = options.share;
    this.#retryInterval = options.retryInterval ?? DEFAULT_RETRY_INTERVAL_MS;
    this.#logger = options.logger;
  }

  async acquire(scope: RateLimitScope, request: RateLimitAcquire): Promise<RateLimitDecision> {
    const returning = this.#retryAt !== undefined;
    if (returning) {
      if (Date.now() < (this.#retryAt ?? 0)) return this.#acquireAlone(scope, request);
      // One request tries the store again; the others keep to the fallback meanwhile.
      this.#retryAt = Date.now() + this.#retryInterval;
    } else if (Date.now() < (this.#aloneUntil.get(scope) ?? 0)) {
      return this.#acquireAlone(scope, request);
    }
    // Back from pacing alone, a process keeps to its share until the window it paced alone in
    // resets, and has the store tell every other process to do the same until the others are back
    // too: no window's budget is spent twice, once alone and once through the store.
    const pacedAloneUntil = returning ? this.#allotment.pacedAloneUntil(scope) : 0;
    let decision: RateLimitDecision;
    try {
      decision = await this.#primary.acquire(
        scope,
        returning
          ? {
              ...request,
              alone: {
                ms: Math.max(0, pacedAloneUntil - Date.now()),
                processes: this.#processes,
                waitMs: Math.min(MAX_RECOVERY_WAIT_MS, Date.now() - this.#failedAt + this.#retryInterval),
              },
            }
          : request,
      );
    } catch (error) {
      this.#failed(scope, error);
      return this.#acquireAlone(scope, request);
    }
    const { fleet } = decision;
    if (fleet !== undefined) this.#learn(fleet.processes);
    // The fleet's view, less what is out: should the store fail, the fallback starts from it
    // rather than from what this process alone saw, which may be a window behind.
    if (fleet?.reading !== undefined) this.#local.record(scope, { reading: fleet.reading });
    if (!decision.granted && decision.reason === 'cooldown') {
      // Kept here too, so that it holds should the store fail before it ends.
      this.#local.record(scope, { cooldownMs: decision.waitMs });
    }
    // Told by the store that processes pace alone: this one too, until it asks again.
    const aloneUntil = Math.max(
      this.#aloneUntil.get(scope) ?? 0,
      pacedAloneUntil,
      fleet?.aloneMs ? Date.now() + fleet.aloneMs : 0,
    );
    this.#aloneUntil.set(scope, aloneUntil);
    this.#answered(scope, aloneUntil);
    if (aloneUntil > Date.now()) {
      if (decision.granted) this.#handBack(scope, decision.lease);
      return !decision.granted && decision.reason === 'cooldown'
        ? decision
        : this.#acquireAlone(scope, request);
    }
    this.#scale = 1;
    return decision.granted ? { ...decision, lease: PRIMARY_LEASE + decision.lease } : decision;
  }

  /** Returns a lease of a store that does not know processes pace alone, unused. */
  #handBack(scope: RateLimitScope, lease: string): void {
    try {
      void Promise.resolve(this.#primary.release(scope, lease, {})).catch(() => {});
    } catch {
      // A store that fails here is tried again, and warned about, by the next acquire.
    }
  }

  release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): Promise<void> {
    const released = this.#release(scope, lease, outcome);
    this.#releasing.add(released);
    return released.finally(() => this.#releasing.delete(released));
  }

  async #release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): Promise<void> {
    if (lease.startsWith(LOCAL_LEASE)) {
      this.#local.release(scope, lease.slice(LOCAL_LEASE.length), outcome);
      // A 429 drawn while pacing alone: the share was too much for the windows as they are.
      if (outcome.cooldownMs !== undefined) this.#scale = Math.max(MIN_SCALE, this.#scale / 2);
      return;
    }
    // The fallback keeps the latest reading too, so it starts from the truth if the store fails.
    this.#local.record(scope, outcome);
    // While the store fails, its leases are left to run out there.
    if (this.#retryAt !== undefined) return;
    try {
      await this.#primary.release(scope, lease.slice(PRIMARY_LEASE.length), outcome);
    } catch (error) {
      this.#failed(scope, error);
    }
  }

  /**
   * Lets every release under way reach the store, then sends what it holds back; unless it fails:
   * then its leases run out there.
   */
  async flush(scope: RateLimitScope): Promise<void> {
    while (this.#releasing.size > 0) await Promise.all(this.#releasing);
    if (this.#retryAt !== undefined) return;
    try {
      await this.#primary.flush?.(scope);
    } catch (error) {
      this.#failed(scope, error);
    }
  }

  #acquireAlone(scope: RateLimitScope, request: RateLimitAcquire): RateLimitDecision {
    const decision = this.#local.acquire(scope, request);
    return decision.granted ? { granted: true, lease: LOCAL_LEASE + decision.lease } : decision;
  }

  /** The most processes the store said share a key in the last minute: shares never add up to more. */
  #learn(processes: number): void {
    const now = Date.now();
    if (processes >= this.#processes || now - this.#processesSaidAt > FLEET_MEMORY_MS) {
      this.#processes = processes;
      this.#processesSaidAt = now;
    }
  }

  #failed(scope: RateLimitScope, error: unknown): void {
    const first = this.#retryAt === undefined;
    this.#retryAt = Date.now() + this.#retryInterval;
    if (!first) return;
    this.#failedAt = Date.now();
    const redacted = redact(error instanceof Error ? error.message : String(error), scope.apiKey);
    const share = this.#currentShare();
    this.#loggerFor(scope).warn(
      `animal-store-sdk: ${this.#name} is not answering (${redacted}); pacing in this process on ${Math.round(share * 100)}% of the rate-limit budget until it does.`,
    );
    publishStore({ event: 'fallback', store: this.#name, baseUrl: scope.baseUrl, share, reason: redacted });
  }

  #answered(scope: RateLimitScope, aloneUntil: number): void {
    if (this.#retryAt === undefined) return;
    this.#retryAt = undefined;
    const message =
      aloneUntil > Date.now()
        ? `animal-store-sdk: ${this.#name} answers again; pacing is shared through it once more when the other processes are back and the rate-limit window paced alone has reset.`
        : `animal-store-sdk: ${this.#name} answers again; pacing is shared through it once more.`;
    const logger = this.#loggerFor(scope);
    if (logger.info) logger.info(message);
    else logger.warn(message);
    publishStore({ event: 'return', store: this.#name, baseUrl: scope.baseUrl });
  }

  #loggerFor(scope: RateLimitScope): Logger {
    return this.#logger ?? scope.logger ?? console;
  }

  /** The share of a window's budget this process spends alone ({@link FallbackOptions.share}). */
  #currentShare(): number {
    const share = this.#share ?? 1 / ((this.#processes > 0 ? this.#processes : ASSUMED_PROCESSES) + 1);
    return share * this.#scale;
  }
}

/**
 * Wraps a shared {@link RateLimitStore} so that a process keeps pacing while the store fails. A
 * store that throws (or rejects) from `acquire` or `release` is taken to be unreachable: the process
 * then paces itself in memory on its share of each window's budget, starting from the latest
 * reading the store gave it, warns once, tries the store again every `retryInterval`, and reports
 * when it answers. Processes pacing alone cannot see each other, so each keeps to its share: a 429
 * it draws halves the share, and it waits the window out. Once the store answers, a process keeps
 * to its share until the window it paced alone in resets, and tells the store (`alone`, with how
 * many processes it knew), which has every process do the same until the others are back too
 * (`fleet.aloneMs`): no window's budget is spent twice. The Redis store of `animal-store-sdk/redis` comes wrapped; a store of your own that
 * reports `fleet` in its decisions gets the same behaviour.
 *
 * @param store - The shared store. It should throw when it cannot reach its state.
 * @param options - The backend's name for the warnings, the share, the retry interval, the logger.
 * @throws TypeError when an option is out of range.
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { type RateLimitStore, withFallback } from 'animal-store-sdk/store';
 *
 * declare const postgresStore: RateLimitStore; // throws while the database is away
 * const client = new PetStoreClient({
 *   apiKey: 'my-key',
 *   baseUrl: 'https://api.example.com/v1',
 *   rateLimitStore: withFallback(postgresStore, { name: 'Postgres' }),
 * });
 * ```
 */
export function withFallback(store: RateLimitStore, options: FallbackOptions = {}): RateLimitStore {
  const { share, retryInterval } = options;
  if (share !== undefined && !(share > 0 && share <= 1)) {
    throw new TypeError(`share must be above 0 and at most 1, got ${share}.`);
  }
  if (retryInterval !== undefined && !(Number.isFinite(retryInterval) && retryInterval > 0)) {
    throw new TypeError(`retryInterval must be a positive number of milliseconds, got ${retryInterval}.`);
  }
  return new FallbackRateLimitStore(store, options);
}
