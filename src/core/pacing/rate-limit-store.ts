/**
 * The contract between the client's gate and wherever pacing state lives: this process
 * ({@link createInProcessRateLimitStore}) or a store shared by many processes, such as the Redis
 * store of `animal-store-sdk/redis`.
 *
 * The gate keeps the queue of waiting requests and asks the store one question per request ("may
 * this one go now?") and reports one outcome per request that went. The store owns the state and
 * the clock: every time it is given is a duration relative to the moment it receives it, so stores
 * on other machines never depend on this host's clock.
 *
 * @module
 */
import type { Logger } from '../log.js';

/**
 * Whose budget a request spends: one service deployment and one API key. A store keeps separate
 * state for every distinct pair, so clients with different keys or base URLs never share a budget.
 *
 * A store must never write the API key anywhere (logs, errors, a database): hash it when it needs
 * a name for the pair, as the Redis store does.
 *
 * @example
 * ```ts
 * import type { RateLimitScope } from 'animal-store-sdk/store';
 *
 * const scope: RateLimitScope = { baseUrl: 'https://api.example.com/v1/', apiKey: 'my-key' };
 * ```
 */
export interface RateLimitScope {
  /** The client's base URL, ending in `/v1/`. */
  readonly baseUrl: string;
  /**
   * The API key (`''` for a client that sends none; for a client whose key is a function, a random
   * name standing for all the keys it returns). Never to be logged or stored as it is.
   */
  readonly apiKey: string;
  /**
   * The logger of the client asking, at its log level and with the key redacted: where a store
   * given no logger of its own reports (an outage, a return). Stores ignore it for identity.
   */
  readonly logger?: Logger | undefined;
}

/**
 * What the gate asks of a store for one request.
 *
 * @example
 * ```ts
 * import type { RateLimitAcquire } from 'animal-store-sdk/store';
 *
 * const request: RateLimitAcquire = { leaseMs: 61_000, pacing: true, burst: 0.2 };
 * ```
 */
export interface RateLimitAcquire {
  /**
   * How long the request may count as in flight if its outcome is never reported (its process
   * died): the attempt timeout plus a margin.
   */
  readonly leaseMs: number;
  /** Whether to pace by the latest reading; the cooldown after a 429 applies either way. */
  readonly pacing: boolean;
  /**
   * The share of a window's budget (above 0, below 1) that may go at once; the rest is spread
   * evenly over the time left in the window (rule 4 of {@link RateLimitStore}). Absent, or 1: the
   * whole budget may go as soon as the window opens.
   */
  readonly burst?: number | undefined;
  /**
   * The milliseconds left before the request's bound: spreading is a preference, so a request whose
   * turn in the spread comes later goes now while the window's budget lasts (rule 4). Absent: none.
   */
  readonly within?: number | undefined;
  /**
   * For a shared store: this process paced alone, on its share, while the store failed (rule 2 of
   * {@link RateLimitStore}; {@link withFallback} sends it). Until every process is back, and the
   * window paced alone has reset, every process of the scope is to pace alone on its share, so that
   * no window's budget is spent twice.
   */
  readonly alone?: RateLimitAlone | undefined;
}

/**
 * What a process that paced alone tells a shared store when it answers again.
 *
 * @example
 * ```ts
 * import type { RateLimitAlone } from 'animal-store-sdk/store';
 *
 * const alone: RateLimitAlone = { ms: 1_400, processes: 4, waitMs: 5_000 };
 * ```
 */
export interface RateLimitAlone {
  /** The window this process paced alone in resets in this many milliseconds; 0 when it has. */
  readonly ms: number;
  /**
   * How many processes it last knew to share the key; 0 when it never knew. Those still pacing
   * alone come back one by one, each as its client reconnects: until as many have asked the store
   * since, for at most `waitMs`, every process paces alone.
   */
  readonly processes: number;
  /** The longest to wait for the others to come back, in milliseconds. */
  readonly waitMs: number;
}

/**
 * A store's answer: go now, holding a lease to hand back with the outcome, or wait.
 *
 * - `cooldown`: a 429 asked every client of the key to wait; `waitMs` is until it ends.
 * - `budget`: the window's requests are spent; `waitMs` is until it resets (or, in a shared store,
 *   until the processes pacing alone stop: `fleet.aloneMs`). Spreading the budget, also the wait
 *   until the even pace lets the next request go.
 * - `probe`: no current reading, and another request is already out learning the budget; `waitMs`
 *   is how soon to ask again.
 *
 * @example
 * ```ts
 * import type { RateLimitDecision } from 'animal-store-sdk/store';
 *
 * const go: RateLimitDecision = { granted: true, lease: 'lease-1' };
 * const wait: RateLimitDecision = { granted: false, waitMs: 1_500, reason: 'budget' };
 * ```
 */
export type RateLimitDecision =
  | {
      /** The request may go. */
      readonly granted: true;
      /** Names the request to the store; handed back with its outcome. */
      readonly lease: string;
      /** A shared store's view of the fleet, for {@link withFallback}. */
      readonly fleet?: RateLimitFleet | undefined;
    }
  | {
      /** The request must wait. */
      readonly granted: false;
      /** How long, in milliseconds, before asking again. */
      readonly waitMs: number;
      /** Why it waits. */
      readonly reason: 'cooldown' | 'budget' | 'probe';
      /**
       * With `budget`: leases out spend what is left, so one answered uncounted would free it. With
       * `probe`: the wait is a poll for the request out, which may answer at any moment.
       */
      readonly held?: boolean | undefined;
      /** A shared store's view of the fleet, for {@link withFallback}. */
      readonly fleet?: RateLimitFleet | undefined;
    };

/**
 * What a store shared by many processes knows of them, given with each decision so that a process
 * can pace alone, on its share, should the store fail ({@link withFallback}).
 *
 * @example
 * ```ts
 * import type { RateLimitFleet } from 'animal-store-sdk/store';
 *
 * const fleet: RateLimitFleet = {
 *   processes: 4,
 *   reading: { limit: 60, remaining: 20, resetInMs: 30_000, window: 1_795_000_000 },
 * };
 * ```
 */
export interface RateLimitFleet {
  /** How many processes used the store for this scope lately (the Redis store: in the last minute). */
  readonly processes: number;
  /** The current reading as the whole fleet sees it, less the leases out; absent when there is none. */
  readonly reading?: RateLimitObservation | undefined;
  /**
   * How many more milliseconds (at least) the processes of the fleet pace alone, each on its share,
   * because some paced alone while the store failed (rule 2 of {@link RateLimitStore}); absent or 0
   * when none does.
   */
  readonly aloneMs?: number | undefined;
}

/**
 * The `X-RateLimit-*` reading of one response, with the reset made relative to the response's own
 * `Date` header (or to its arrival when it has none), so that a host whose clock is off neither
 * waits too long nor sends too early.
 *
 * @example
 * ```ts
 * import type { RateLimitObservation } from 'animal-store-sdk/store';
 *
 * const observed: RateLimitObservation = { limit: 60, remaining: 12, resetInMs: 41_000, window: 1_795_000_000 };
 * ```
 */
export interface RateLimitObservation {
  /** `X-RateLimit-Limit`. */
  readonly limit: number;
  /** `X-RateLimit-Remaining`. */
  readonly remaining: number;
  /** Milliseconds from the response until the window resets. */
  readonly resetInMs: number;
  /**
   * `X-RateLimit-Reset` as the service sent it (unix seconds, on the service's clock): the same
   * for every response of one window, whichever host received it.
   */
  readonly window: number;
}

/**
 * What a request that went learned, reported to the store with its lease.
 *
 * @example
 * ```ts
 * import type { RateLimitOutcome } from 'animal-store-sdk/store';
 *
 * const refused: RateLimitOutcome = {
 *   reading: { limit: 60, remaining: 0, resetInMs: 30_000, window: 1_795_000_000 },
 *   cooldownMs: 30_000,
 * };
 * const noResponse: RateLimitOutcome = {};
 * ```
 */
export interface RateLimitOutcome {
  /**
   * The response's reading; `null` for a success without rate-limit headers (the service does not
   * report them, so there is nothing to pace by); absent when no response arrived or an error
   * response carried none (it may come from a proxy in front of the service).
   */
  readonly reading?: RateLimitObservation | null | undefined;
  /** For a 429, the wait the service asked for: every client of the key waits that long. */
  readonly cooldownMs?: number | undefined;
  /**
   * The request was sent and no response came back, so the service may have counted it: `'lost'`
   * when its answer was lost, stalled or cut off before its headers, its connection failed or it
   * timed out; `'aborted'` when its caller gave up while it was in flight.
   */
  readonly unanswered?: 'lost' | 'aborted' | undefined;
}

/**
 * Where a client's pacing state lives: the latest rate-limit reading, the requests in flight, and
 * the cooldown after a 429. Pass one to many clients (`rateLimitStore`) to give them one budget per
 * base URL and API key: {@link createInProcessRateLimitStore} within a process, `redisRateLimitStore`
 * from `animal-store-sdk/redis` across processes.
 *
 * These are the rules every store follows; the in-process store and the Redis store's scripts
 * implement them and say so rather than restate them. Either method may answer synchronously or
 * with a promise. A store must be safe to call concurrently, keep state per {@link RateLimitScope}
 * (its base URL and API key), and decide as the gate expects:
 *
 * 1. during a cooldown, refuse with `cooldown`; cooldowns only ever extend;
 * 2. (a shared store) while processes pace alone (told by a request's `alone`: until its window
 *    resets, and until as many processes as it knew have asked since, for at most its `waitMs`;
 *    each only ever extends), refuse with `budget`, saying in `fleet.aloneMs` how soon to ask again;
 * 3. with pacing off, or once a success without headers showed the service does not report them,
 *    grant;
 * 4. with a current reading (its reset still ahead), grant while `remaining` exceeds the leases
 *    outstanding and the window's unanswered requests (below), else refuse with `budget` until the reset
 *    (`held` when the leases out are what spends it); given a `burst` below 1, also refuse
 *    with `budget` until the window's pace allows the next request, by the rule of `spread()`:
 *    a burst of `burst` × `limit` requests, then what is left spread evenly over the time left, the
 *    pace starting afresh with each window; but grant a request whose `within` ends before that
 *    (spreading is a preference, not a limit);
 * 5. with none, or once a request went unanswered (below) and until a reading returns, grant one
 *    request at a time, the probe, so that a burst learns the budget with one request: while it is
 *    out, refuse with `probe` (leases granted by an earlier reading do not hold it back); after a
 *    request `lost` (or `aborted` with no current reading), also refuse with `probe` until a
 *    jittered exponential backoff is over (0.5 s doubling to 30 s, half of each step random, never
 *    shorter than the longest window seen over its `limit`, so that no window gets more probes than
 *    the last budget known).
 *
 * Outcomes: of one window (same `window`), the lowest `remaining` stands as responses arrive out of
 * order, and its reset once read never moves earlier (a call refused by it is never then served
 * sooner); a `null` reading while there is no reading marks the service as
 * not reporting; a `cooldownMs` extends the cooldown. An `unanswered` request may have been counted:
 * it stays spent in the window it went in until that window resets, and in no later one unless it
 * went with none current, or so near the reset as read that the window may have reset (a
 * whole-second reset comes early): then it may have opened the next, and spends the current window
 * until a window's length has passed since it went; it is
 * kept apart from `remaining` until the reading of a request granted after it (which counted it, or
 * shows it never arrived: a reading taken before it went cannot have). With no current reading, no
 * more requests go than the last `limit` while as many went within a window's length. The requests
 * after it probe (rule 5) until a reading returns. An outcome of `{}` (a lease never used, or a response that told nothing) spends
 * nothing. A store shared by processes lets a lease never released (its process died) count as in flight for at most its `leaseMs`. A store that cannot reach its state throws; {@link withFallback} turns
 * that into pacing in the process.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createInProcessRateLimitStore, type RateLimitStore } from 'animal-store-sdk/store';
 *
 * // One budget for every client this process creates for the key, e.g. one per incoming request.
 * const store: RateLimitStore = createInProcessRateLimitStore();
 * const perRequestClient = () =>
 *   new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', rateLimitStore: store });
 * await perRequestClient().listPets();
 * ```
 */
export interface RateLimitStore {
  /** Asks whether one request of `scope` may be sent now. */
  acquire(scope: RateLimitScope, request: RateLimitAcquire): RateLimitDecision | Promise<RateLimitDecision>;
  /** Hands back a lease from {@link RateLimitStore.acquire} with what its request learned. */
  release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): void | Promise<void>;
  /**
   * Optional: sends at once what the store holds back of `scope`'s releases (the Redis store lets a
   * release ride on the next acquire), so that other processes can spend those leases. A closing
   * client calls it last.
   */
  flush?(scope: RateLimitScope): void | Promise<void>;
}
