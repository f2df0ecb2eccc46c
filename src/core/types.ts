/**
 * The types a caller touches on every call: what a call takes, what it reports, and the rate-limit
 * reading. Types only, so every other module can import them without a cycle.
 *
 * @module
 */

export type { Fetch } from '../shared/fetch.js';

/**
 * Options handed to `fetch` with every attempt, beside the request the client builds: the standard
 * ones (`cache`, `credentials`, `keepalive`, `priority`, ...) and any a runtime or framework reads,
 * such as Next.js's `next: { revalidate, tags }` or undici's `dispatcher`. The client's own
 * `method`, `headers`, `body` and `signal` are refused here: use the `headers` and `signal` options.
 * A retry never comes from a cache: on a retry, a `cache` or `next` given here becomes
 * `cache: 'no-store'`. Redirects are the client's: it follows one only under the base URL, and
 * `redirect: 'error'` here makes it follow none.
 *
 * @inline
 */
export interface FetchOptions extends Omit<RequestInit, 'body' | 'headers' | 'method' | 'signal'> {
  /** Set by the client. */
  body?: never;
  /** Set by the client: use the `headers` option. */
  headers?: never;
  /** Set by the client. */
  method?: never;
  /** Set by the client: use the `signal` option. */
  signal?: never;
  /** Any option a runtime's or a framework's `fetch` reads. */
  [option: string]: unknown;
}

/**
 * Options for a single call, overriding the client's.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type RequestOptions } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const options: RequestOptions = { timeout: 5_000, maxRetries: 0, signal: AbortSignal.timeout(10_000) };
 * await client.listPets({ limit: 5 }, options);
 * ```
 */
export interface RequestOptions {
  /** Aborts the call, also while it waits to retry. */
  signal?: AbortSignal | undefined;
  /** Milliseconds allowed for each attempt. */
  timeout?: number | undefined;
  /**
   * Milliseconds allowed for the whole call: its waits in the queue, its attempts and the waits
   * between them. A call that cannot start in time is refused at once (`code` `client_deadline`).
   */
  callTimeout?: number | undefined;
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** The most bytes of a response's body read for this call, as the client's `maxResponseBytes`. */
  maxResponseBytes?: number | undefined;
  /** Extra headers for this call; the same names are refused as for the client-wide `headers`. */
  headers?: HeadersInput | undefined;
  /** Options handed to `fetch` with every attempt of this call, over the client's `fetchOptions`. */
  fetchOptions?: FetchOptions | undefined;
}

/**
 * Headers as the client takes them, client-wide or per call: a `Headers`, an array of
 * `[name, value]` pairs, or an object. A name or value `fetch` would refuse (a control character, a
 * character beyond Latin-1, a name that is not an HTTP token) is refused before anything is sent.
 *
 * @inline
 */
export type HeadersInput =
  | Headers
  | readonly (readonly [string, string])[]
  | Readonly<Record<string, string>>;

/**
 * The methods `client.request()` may use.
 *
 * @inline
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * A query parameter's value in `client.request()`: an array repeats the parameter, `undefined`
 * leaves it out.
 *
 * @inline
 */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;

/**
 * What the service said about the caller's rate limit in a response: `client.rateLimit`,
 * `withResponse().rateLimit` and `APIError.rateLimit`.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type RateLimit } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * await client.listPets();
 * const rateLimit: RateLimit | null = client.rateLimit;
 * if (rateLimit && rateLimit.remaining < 5) {
 *   console.log(`Only ${rateLimit.remaining} requests left until ${rateLimit.reset.toISOString()}`);
 * }
 * ```
 */
export interface RateLimit {
  /** The limit in force for the caller (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the current window (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When the window resets (`X-RateLimit-Reset`, a unix timestamp in seconds), as a `Date`. */
  readonly reset: Date;
}

/**
 * Why the client waits before sending:
 *
 * - `retry-after`: the service answered 429 or 503 with `Retry-After`; the retry waits that long.
 * - `reset`: the service answered 429 without `Retry-After`, with the window spent; the retry waits
 *   for `X-RateLimit-Reset`.
 * - `backoff`: exponential backoff with jitter before a retry, when the service did not say how long.
 * - `cooldown`: another request of the same key was answered 429; every request waits it out.
 * - `budget`: the rate-limit headers say the window's requests are spent; the request waits for the
 *   reset. Also a wait for its turn while the window's budget is spread over it (`pacingBurst`).
 * - `probe`: no current reading, or requests went unanswered: one request at a time learns the
 *   budget, and this one waits for its answer (how soon it is likely back) or for the backoff before
 *   the next.
 *
 * @inline
 */
export type WaitReason = 'retry-after' | 'reset' | 'backoff' | 'cooldown' | 'budget' | 'probe';

/**
 * One wait the client takes before sending a request, reported to `onWait` once, before it
 * starts: retries after a 429 or a failure, the cooldown after another request's 429, and pacing by
 * the rate-limit budget.
 *
 * @inline
 */
export interface RateLimitWait {
  /**
   * The operation that waits: the client's method (`listPets`), or for `client.request()` its
   * method and path (`GET /store/orders`).
   */
  readonly operation: string;
  /** How long it waits, in milliseconds: the wait the client then takes. */
  readonly waitMs: number;
  /** Why it waits. */
  readonly reason: WaitReason;
}

/**
 * The client's queue as it stands ({@link PetStoreClient.queue}): the calls waiting to be sent (for
 * the rate limit, or for a retry's turn), the attempts in flight, and how long the call that has
 * waited longest has waited.
 *
 * @inline
 */
export interface ClientQueue {
  /** Calls waiting to be sent. */
  readonly waiting: number;
  /** Requests sent and not yet answered. */
  readonly inFlight: number;
  /** How long the call that has waited longest has waited, in milliseconds; 0 when none waits. */
  readonly oldestWaitMs: number;
  /** Whether `close()` was called: new calls are refused. */
  readonly closed: boolean;
}
