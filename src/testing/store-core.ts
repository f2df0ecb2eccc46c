/**
 * The seam between the fake store and the adapters that serve it (msw, fetch, HTTP): what the store
 * makes of a request, what its control API may change, and where and how the HTTP server listens.
 *
 * @module
 */
import type { Pet } from '../schemas.js';
import type { BaseUrl } from './base-url.js';
import type { ChaosOptions } from './chaos.js';
import type { FaultOptions } from './faults.js';
import type { RecordedRequest } from './request-log.js';

/**
 * The control API of a fake HTTP server (`/__fake/` at its root; see docs/testing-from-another-process.md):
 * who may use it, and how many sessions it keeps.
 *
 * @example
 * ```ts
 * import type { ControlOptions } from 'animal-store-sdk/testing';
 *
 * // In a container, reachable from other hosts: only with the token.
 * const control: ControlOptions = { token: 'a-long-random-secret', maxSessions: 20 };
 * ```
 */
export interface ControlOptions {
  /**
   * When given, every control request must carry `Authorization: Bearer <token>` (401 otherwise),
   * and the control API is on whatever address the server listens on. Without it, the control API is
   * on only on a loopback address.
   */
  readonly token?: string;
  /** The most sessions kept at once; another is refused 503 `too_many_sessions`. Default {@link DEFAULT_MAX_SESSIONS}. */
  readonly maxSessions?: number;
  /**
   * A session that received no request (to its API or its control URL) for this many milliseconds ends,
   * by the store's `now` clock. Default {@link DEFAULT_SESSION_IDLE_MS}.
   */
  readonly sessionIdleMs?: number;
}

/**
 * The most sessions a fake HTTP server keeps at once, by default.
 *
 * @example
 * ```ts
 * import { DEFAULT_MAX_SESSIONS } from 'animal-store-sdk/testing';
 *
 * DEFAULT_MAX_SESSIONS; // 100
 * ```
 */
export const DEFAULT_MAX_SESSIONS = 100;

/**
 * How long a session may go without a request before it ends, by default (15 minutes).
 *
 * @example
 * ```ts
 * import { DEFAULT_SESSION_IDLE_MS } from 'animal-store-sdk/testing';
 *
 * DEFAULT_SESSION_IDLE_MS; // 900000
 * ```
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
  readonly requestTimeoutMs?: number;
  /**
   * The control API under `/__fake/`: on by default on a loopback address, off beyond it unless a
   * `token` is given; `false` turns it off everywhere.
   */
  readonly control?: ControlOptions | false;
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
  | { readonly kind: 'response'; readonly response: Response }
  | { readonly kind: 'network-error' };

/**
 * What the control API may read and change in a store: the same operations as `FakePetStore`'s.
 */
export interface StoreControl {
  readonly pets: Pet[];
  readonly requests: RecordedRequest[];
  setPets(pets: readonly Pet[]): void;
  injectFault(fault: FaultOptions): void;
  clearFaults(): void;
  advanceClock(ms: number): void;
  injectChaos(options: ChaosOptions): void;
  clearChaos(): void;
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
  readonly control: StoreControl;
  /**
   * A new, isolated store with this one's options (keys, plans, initial pets, limits), serving
   * `basePath` (`/sessions/<id>/v1`), and keeping at most `maxRecordedRequests` requests.
   */
  spawn(basePath: string, maxRecordedRequests: number): StoreCore;
  /** The largest request body read, in bytes. */
  readonly maxBodyBytes: number;
  /**
   * Answers a request. `baseHref` is the base URL the request was sent to (the configured one, or the
   * HTTP server's); links in responses point under it. `oversized` says the caller already found the
   * body over the limit and did not read it.
   */
  respond(request: Request, baseHref: string, oversized?: boolean): Promise<Outcome>;
}
