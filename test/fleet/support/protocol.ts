/**
 * The messages between a fleet test and its workers (worker.ts), and a worker's configuration.
 *
 * @module
 */

/** How a worker paces: its client's own in-process pacing, or one budget shared through Redis. */
export type StoreKind = 'none' | 'redis' | 'ioredis';

/** What a worker is started with. */
export interface FleetWorkerConfig {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly store: StoreKind;
  /** `redis://127.0.0.1:<port>` of the server, or of every node of a cluster, for the Redis stores. */
  readonly redisUrls?: readonly string[];
  /** Whether the Redis is a cluster: the worker connects with `createCluster` or ioredis's `Cluster`. */
  readonly cluster?: boolean;
  /** Whether to go on without waiting for the connection, as an app must when Redis is away. */
  readonly connectInBackground?: boolean;
  /** Options of `redisRateLimitStore` besides the logger (which reports to the parent). */
  readonly storeOptions?: Readonly<Record<string, number | string>>;
  /** The client's per-attempt `timeout`: leases last this plus a second. */
  readonly timeoutMs: number;
  readonly maxRetries: number;
  /** The client's `pacingBurst`; absent, its default. */
  readonly pacingBurst?: number;
  /** Sent as `X-Fleet-Worker` on every request, so the store's log tells the workers apart. */
  readonly name?: string;
}

/** From the test to a worker. */
export type ToWorker =
  | {
      readonly type: 'run';
      readonly id: number;
      readonly operation: 'listPets' | 'getPet';
      readonly calls: number;
      /** Calls in flight at once within the worker. */
      readonly concurrency: number;
      readonly limit?: number;
    }
  | { readonly type: 'close' };

/** A call that failed in a worker. */
export interface CallFailure {
  readonly name: string;
  readonly message: string;
  readonly status: number | undefined;
  /** The Error body's `code`, e.g. `api_key_banned`. */
  readonly code: string | undefined;
  /** A `RateLimitError`'s or `RefusedError`'s `retryAfterMs`. */
  readonly retryAfterMs?: number | undefined;
}

/** From a worker to the test. */
export type ToParent =
  | { readonly type: 'ready'; readonly pid: number; readonly now: number }
  | { readonly type: 'warning'; readonly message: string }
  | {
      readonly type: 'ran';
      readonly id: number;
      readonly ok: number;
      readonly failures: readonly CallFailure[];
      readonly elapsedMs: number;
    };
