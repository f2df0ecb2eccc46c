/**
 * The seam between the fake store and the adapters that serve it (msw, fetch, HTTP): what the store
 * makes of a request, what its control API may change, and where and how the HTTP server listens.
 *
 * @module
 */
import type { Pet } from '../../schemas.js';
import { checkNames } from '../../shared/option-names.js';
import type { ChaosOptions } from '../disruptions/chaos.js';
import type { FaultOptions } from '../disruptions/faults.js';
import type { Har, HarOptions } from '../recording/har.js';
import type { BaseUrl } from './base-url.js';
import type { RecordedRequest } from './request-log.js';

/**
 * The control API of a fake HTTP server (`/__fake/` at its root; see docs/testing-from-another-process.md):
 * who may use it, which pages may, and how many sessions it keeps.
 *
 * @inline
 */
export interface ControlOptions {
  /**
   * When given, every control request must carry `Authorization: Bearer <token>` (401 otherwise),
   * and the control API is on whatever address the server listens on. Without it, the control API is
   * on only on a loopback address.
   */
  readonly token?: string;
  /**
   * The origins (`http://localhost:5173`: scheme, host and port) whose pages may drive the control API
   * from a browser. Default none: a request that carries any other `Origin` is refused 403
   * `untrusted_origin`, preflights included, and no control answer carries
   * `Access-Control-Allow-Origin: *`. Tests in Node send no `Origin` and need nothing here.
   */
  readonly trustedOrigins?: readonly string[];
  /** The most sessions kept at once; another is refused 503 `too_many_sessions`. Default `fakePetStoreConstants.defaultMaxSessions`. */
  readonly maxSessions?: number;
  /**
   * A session that received no request (to its API or its control URL) for this many milliseconds ends,
   * by the store's `now` clock. Default `fakePetStoreConstants.defaultSessionIdleMs`.
   */
  readonly sessionIdleTimeout?: number;
}

/**
 * The most sessions a fake HTTP server keeps at once, by default.
 */
export const DEFAULT_MAX_SESSIONS = 100;

/**
 * How long a session may go without a request before it ends, by default (15 minutes).
 */
export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;

/**
 * Where {@link FakePetStore.listen} starts the HTTP server.
 *
 * @example
 * ```ts
 * import type { ListenOptions } from 'animal-store-sdk/testing';
 *
 * const options: ListenOptions = { port: 4010, hostname: '127.0.0.1' };
 * // A service that hides Retry-After and X-RateLimit-* from pages.
 * const strict: ListenOptions = { corsHeaders: ['Authorization', 'Content-Type'] };
 * ```
 */
export interface ListenOptions {
  /** The TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** The address to listen on. Default `127.0.0.1` (loopback only). */
  readonly hostname?: string;
  /**
   * Milliseconds a client has to send a whole request, headers and body; a request still
   * incomplete then is answered 408 `request_timeout` and its connection closed. Checked about
   * once a second. Default 30,000.
   */
  readonly requestTimeout?: number;
  /**
   * The control API under `/__fake/`: on by default on a loopback address, off beyond it unless a
   * `token` is given; `false` turns it off everywhere.
   */
  readonly control?: ControlOptions | false;
  /**
   * Makes the server act like a strict service: CORS preflights allow, and answers expose to pages,
   * only the headers this list names (e.g. `['Authorization', 'Content-Type']`, to see how a page
   * behaves when the service hides `Retry-After` and `X-RateLimit-*`). By default preflights allow
   * whatever headers a page asks to send, and answers expose every header the SDK reads.
   */
  readonly corsHeaders?: readonly string[];
}

/** The names of each object's options: the types make one added to the interface be listed here. */
const LISTEN_OPTION_NAMES = Object.keys({
  port: 0,
  hostname: 0,
  requestTimeout: 0,
  control: 0,
  corsHeaders: 0,
} satisfies Record<keyof ListenOptions, 0>);
const CONTROL_OPTION_NAMES = Object.keys({
  token: 0,
  maxSessions: 0,
  sessionIdleTimeout: 0,
  trustedOrigins: 0,
} satisfies Record<keyof ControlOptions, 0>);

/**
 * Throws a `TypeError` for a name that is not one of {@link ListenOptions}' (or its `control`'s),
 * before a server starts.
 */
export function checkListenOptionNames(options: ListenOptions): void {
  checkNames('listen() option', options, LISTEN_OPTION_NAMES);
  if (typeof options.control === 'object')
    checkNames('listen() control option', options.control, CONTROL_OPTION_NAMES);
}

/**
 * A running fake HTTP server.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const server = await createFakePetStore().listen();
 * console.log(server.url); // e.g. http://127.0.0.1:53412/v1
 * await server.close();
 * ```
 */
export interface RunningFakeServer {
  /** The base URL of the server (scheme, address, port and the store's base path, ending in `/v1`). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /** The URL of its control API (`http://127.0.0.1:PORT/__fake`), or `undefined` when it is off. */
  readonly controlUrl: string | undefined;
  /**
   * Stops the server: closes idle keep-alive connections, cuts requests still waiting on an injected
   * delay, and resolves once every connection is closed.
   */
  close(): Promise<void>;
}

/**
 * What the store makes of one request: a response, or a failed connection.
 */
export type Outcome =
  | {
      readonly kind: 'response';
      readonly response: Response;
      /** Set when the body is a stream a fault spoils: the bytes announced, sent as the stream gives them. */
      readonly bodyLength?: number;
    }
  | { readonly kind: 'network-error' };

/**
 * What a fake store's state can be asked and told, in process ({@link FakePetStore}) and through the
 * HTTP server's control API.
 *
 * @inline
 */
export interface FakeStoreControl {
  /** A copy of the current animals, ordered by id. */
  readonly pets: Pet[];
  /**
   * A copy of every request received under the base URL, oldest first; only the latest
   * `maxRecordedRequests` when that option is set.
   */
  readonly requests: RecordedRequest[];
  /**
   * Replaces every animal with `pets` (each checked with `PetSchema`; ids must differ); new ids
   * continue above the highest of them. `reset()` returns to the initial animals.
   *
   * @throws TypeError when an animal is not a valid Pet or two share an id; nothing changes then.
   */
  setPets(pets: readonly Pet[]): void;
  /** Injects a fault for the next matching request(s). See {@link FaultOptions}. */
  injectFault(fault: FaultOptions): void;
  /** Removes every injected fault that has not been used up, and ends chaos. */
  clearFaults(): void;
  /**
   * Moves the store's clock forward by `ms` (a whole number of milliseconds, 0 to a year): rate-limit
   * windows and bans that end within it pass at once, and `X-RateLimit-Reset`, `Retry-After` and the
   * HTTP server's `Date` follow. It adds to the `now` option, so it works with fake timers too.
   *
   * @throws RangeError when `ms` is not such a number.
   */
  advanceClock(ms: number): void;
  /**
   * Starts reproducible chaos, replacing any before it: a seeded share of the requests gets a random
   * fault (and a random delay, when asked). See {@link ChaosOptions}; `clearChaos()`, `clearFaults()`
   * and `reset()` end it.
   *
   * @throws TypeError or RangeError when an option is invalid.
   */
  injectChaos(options: ChaosOptions): void;
  /** Ends chaos; injected faults stay. */
  clearChaos(): void;
  /**
   * Checks that the store was used as the test set it up: every injected fault fired (as many times
   * as its `times`; one with `times: Infinity` at least once), and, for a `strict` store, no request
   * reached a path the fake does not model.
   *
   * @throws FakeStoreVerificationError listing each problem; a fault that never fired comes with the
   * requests received that came closest to its match, and what differed.
   *
   * @example
   * ```ts
   * import { createFakePetStore } from 'animal-store-sdk/testing';
   * import { afterEach } from 'vitest';
   *
   * const store = createFakePetStore({ strict: true });
   * afterEach(() => {
   *   store.verify();
   *   store.reset();
   * });
   * ```
   */
  verify(): void;
  /**
   * Returns to the initial state: the initial animals (and id counter), no recorded requests, no rate
   * limit windows or bans, no injected faults or chaos, and the clock without what `advanceClock` added.
   */
  reset(): void;
}

/**
 * The store's request handling, for the adapters (msw, fetch, HTTP).
 */
export interface StoreCore {
  /** The configured base URL. */
  readonly base: BaseUrl;
  /** The store's clock, in milliseconds since the epoch: the `now` option, plus what `advanceClock` added. */
  readonly now: () => number;
  /** The `now` option alone, which `advanceClock` does not move: what sessions expire by. */
  readonly baseNow: () => number;
  /** Its state, as the control API reads and changes it. */
  readonly control: FakeStoreControl;
  /** The request log as a HAR 1.2 archive, keys redacted (`GET /__fake/requests.har`). */
  har(options?: HarOptions): Har;
  /**
   * A new, isolated store with this one's options (keys, plans, initial pets, limits), serving
   * `basePath` (`/sessions/<id>/v1`), its request log within `limits`.
   */
  spawn(
    basePath: string,
    limits: { readonly maxRecordedRequests: number; readonly maxRecordedBytes: number },
  ): StoreCore;
  /** The largest request body read, in bytes. */
  readonly maxBodyBytes: number;
  /** The most bytes its request log keeps (`Infinity` when unbounded). */
  readonly maxRecordedBytes: number;
  /**
   * Answers a request. `baseHref` is the base URL the request was sent to (the configured one, or the
   * HTTP server's); links in responses point under it. `oversized` says the caller already found the
   * body over the limit and did not read it.
   */
  respond(request: Request, baseHref: string, oversized?: boolean): Promise<Outcome>;
}
