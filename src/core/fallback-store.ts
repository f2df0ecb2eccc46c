/**
 * A {@link RateLimitStore} that stands in for another while it fails: a shared store (Redis, say)
 * whose backend stops answering makes its process pace alone, on its share of the budget, until the
 * backend answers again. Any store that throws when it cannot reach its state gets this for free.
 *
 * @module
 */
import { publishStore } from './channels.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import type { Logger } from './log.js';
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';
import { redact } from './redact.js';

/**
 * Options of {@link withFallback}.
 *
 * @example
 * ```ts
 * import type { FallbackOptions } from 'animal-store-sdk';
 *
 * const options: FallbackOptions = { name: 'Postgres', share: 0.25, retryIntervalMs: 2_000 };
 * ```
 */
export interface FallbackOptions {
  /** What the warnings call the store's backend, e.g. `'Redis'`. Default: `'The rate-limit store'`. */
  readonly name?: string | undefined;
  /**
   * While the store fails, the share (above 0, at most 1) of each window's remaining budget this
   * process may spend. Default: 1 / the number of processes the store last said share the key
   * (`fleet.processes` of its decisions); 1/4 when it never said.
   */
  readonly share?: number | undefined;
  /** While the store fails, how often one request tries it again, in ms. Default: 1,000. */
  readonly retryIntervalMs?: number | undefined;
  /**
   * Where the fallback (`warn`, once per outage) and the return (`info`, else `warn`) are reported.
   * Default: the logger, at the log level, of the client whose request noticed.
   */
  readonly logger?: Logger | undefined;
}

const DEFAULT_NAME = 'The rate-limit store';
const DEFAULT_RETRY_INTERVAL_MS = 1_000;

/** The share before the store ever said how many processes share the key. */
const UNKNOWN_FLEET_SHARE = 1 / 4;

/** Leases carry where they came from, so each release goes back to the store that granted it. */
const PRIMARY_LEASE = 'store:';
const LOCAL_LEASE = 'local:';

class FallbackRateLimitStore implements RateLimitStore {
  readonly #primary: RateLimitStore;
  readonly #name: string;
  readonly #share: number | undefined;
  readonly #retryIntervalMs: number;
  readonly #logger: Logger | undefined;
  readonly #local = new InProcessRateLimitStore({ share: () => this.#currentShare() });
  /** How many processes the store last said share a key; 0 before it said. */
  #processes = 0;
  /** While the store fails: when to try it again. `undefined` while it answers. */
  #retryAt: number | undefined;

  constructor(primary: RateLimitStore, options: FallbackOptions) {
    this.#primary = primary;
    this.#name = options.name ?? DEFAULT_NAME;
    this.#share = options.share;
    this.#retryIntervalMs = options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS;
    this.#logger = options.logger;
  }

  async acquire(scope: RateLimitScope, request: RateLimitAcquire): Promise<RateLimitDecision> {
    if (this.#retryAt !== undefined) {
      if (Date.now() < this.#retryAt) return this.#acquireLocally(scope, request);
      // One request tries the store again; the others keep to the fallback meanwhile.
      this.#retryAt = Date.now() + this.#retryIntervalMs;
    }
    let decision: RateLimitDecision;
    try {
      decision = await this.#primary.acquire(scope, request);
    } catch (error) {
      this.#failed(scope, error);
      return this.#acquireLocally(scope, request);
    }
    this.#answered(scope);
    if (decision.fleet !== undefined) {
      this.#processes = decision.fleet.processes;
      // The fleet's view, less what is out: should the store fail, the fallback starts from it
      // rather than from what this process alone saw, which may be a window behind.
      if (decision.fleet.reading !== undefined)
        this.#local.record(scope, { reading: decision.fleet.reading });
    }
    return decision.granted ? { ...decision, lease: PRIMARY_LEASE + decision.lease } : decision;
  }

  async release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): Promise<void> {
    if (lease.startsWith(LOCAL_LEASE)) {
      this.#local.release(scope, lease.slice(LOCAL_LEASE.length), outcome);
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

  #acquireLocally(scope: RateLimitScope, request: RateLimitAcquire): RateLimitDecision {
    const decision = this.#local.acquire(scope, request);
    return decision.granted ? { granted: true, lease: LOCAL_LEASE + decision.lease } : decision;
  }

  #failed(scope: RateLimitScope, error: unknown): void {
    const first = this.#retryAt === undefined;
    this.#retryAt = Date.now() + this.#retryIntervalMs;
    if (!first) return;
    const reason = error instanceof Error ? error.message : String(error);
    const share = this.#currentShare();
    this.#loggerFor(scope).warn(
      `animal-store-sdk: ${this.#name} is not answering (${reason}); pacing in this process on ${Math.round(share * 100)}% of the rate-limit budget until it does.`,
    );
    const redacted = redact(reason, scope.apiKey);
    publishStore({ event: 'fallback', store: this.#name, baseUrl: scope.baseUrl, share, reason: redacted });
  }

  #answered(scope: RateLimitScope): void {
    if (this.#retryAt === undefined) return;
    this.#retryAt = undefined;
    const message = `animal-store-sdk: ${this.#name} answers again; pacing is shared through it once more.`;
    const logger = this.#loggerFor(scope);
    if (logger.info) logger.info(message);
    else logger.warn(message);
    publishStore({ event: 'return', store: this.#name, baseUrl: scope.baseUrl });
  }

  #loggerFor(scope: RateLimitScope): Logger {
    return this.#logger ?? scope.logger ?? console;
  }

  #currentShare(): number {
    return this.#share ?? (this.#processes > 0 ? 1 / this.#processes : UNKNOWN_FLEET_SHARE);
  }
}

/**
 * Wraps a shared {@link RateLimitStore} so that a process keeps pacing while the store fails. A
 * store that throws (or rejects) from `acquire` or `release` is taken to be unreachable: the process
 * then paces itself in memory on its share of the budget, starting from the latest reading the
 * store gave it, warns once, tries the store again every `retryIntervalMs`, and reports when it
 * answers. The Redis store of `animal-store-sdk/redis` comes wrapped; a store of your own that
 * reports `fleet` in its decisions gets the same behaviour.
 *
 * @param store - The shared store. It should throw when it cannot reach its state.
 * @param options - The backend's name for the warnings, the share, the retry interval, the logger.
 * @throws TypeError when an option is out of range.
 * @example
 * ```ts
 * import { PetStoreClient, type RateLimitStore, withFallback } from 'animal-store-sdk';
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
  const { share, retryIntervalMs } = options;
  if (share !== undefined && !(share > 0 && share <= 1)) {
    throw new TypeError(`share must be above 0 and at most 1, got ${share}.`);
  }
  if (retryIntervalMs !== undefined && !(Number.isFinite(retryIntervalMs) && retryIntervalMs > 0)) {
    throw new TypeError(`retryIntervalMs must be a positive number of milliseconds, got ${retryIntervalMs}.`);
  }
  return new FallbackRateLimitStore(store, options);
}
