/**
 * The SDK's diagnostics channels as a subscriber sees them: their names and the shape of what each
 * one carries. Names and types only, so that an instrumentation can import them without loading the
 * client.
 *
 * @module
 */
import type { RateLimit, WaitReason } from '../types.js';

/**
 * The names of the SDK's channels in `node:diagnostics_channel`:
 *
 * - `operation`: a `TracingChannel`, one trace per call, with an {@link OperationContext}.
 * - `attempt`: a `TracingChannel`, one trace per HTTP attempt of a call, with an {@link AttemptContext}.
 * - `wait`: a channel told of every wait before an attempt, with a {@link WaitMessage}.
 * - `store`: a channel told when a shared rate-limit store stops answering and when it answers again,
 *   with a {@link StoreMessage}.
 * - `queue`: a channel told when the number of calls waiting changes and when the client refuses a
 *   call, with a {@link QueueMessage}.
 *
 * The client publishes only while someone listens, and only where the runtime has
 * `diagnostics_channel` (Node.js, Bun, Deno, Cloudflare Workers); in browsers nothing is published.
 *
 * @example
 * ```ts
 * import { tracingChannel } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type OperationContext } from 'animal-store-sdk/diagnostics';
 *
 * tracingChannel<object, OperationContext>(DIAGNOSTICS_CHANNELS.operation).subscribe({
 *   start() {},
 *   end() {},
 *   asyncStart() {},
 *   asyncEnd: (call) => console.log(call.operation, call.attempts, call.status, call.error),
 *   error() {},
 * });
 * ```
 */
// Marked pure so that a bundle that never reads the names (a page's: its channels do nothing)
// leaves them out.
export const DIAGNOSTICS_CHANNELS = /* @__PURE__ */ Object.freeze({
  /** A `TracingChannel`: one trace per call, with an {@link OperationContext}. */
  operation: 'animal-store-sdk:operation',
  /** A `TracingChannel`: one trace per HTTP attempt, with an {@link AttemptContext}. */
  attempt: 'animal-store-sdk:attempt',
  /** A channel: every wait before an attempt, as a {@link WaitMessage}. */
  wait: 'animal-store-sdk:wait',
  /** A channel: a shared store's fallback and return, as a {@link StoreMessage}. */
  store: 'animal-store-sdk:store',
  /** A channel: the queue's length as it changes, and each refusal, as a {@link QueueMessage}. */
  queue: 'animal-store-sdk:queue',
} as const);

/**
 * The context of one call, traced on {@link DIAGNOSTICS_CHANNELS}.operation from the call to its
 * result or error, calls refused before sending included. `attempts`, `status` and `requestId` are
 * up to date at `asyncEnd`; on failure `error` is the error the caller gets. There is no `result`:
 * the data stays with the caller. The same object travels with each attempt and wait of the call
 * (their `call`).
 *
 * @example
 * ```ts
 * import { AsyncLocalStorage } from 'node:async_hooks';
 * import { tracingChannel } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type OperationContext } from 'animal-store-sdk/diagnostics';
 *
 * // What a call does (its fetch, its logger, onWait) runs with the store bound at its start.
 * const current = new AsyncLocalStorage<OperationContext>();
 * tracingChannel<object, OperationContext>(DIAGNOSTICS_CHANNELS.operation).start.bindStore(current, (call) => call);
 * ```
 */
export interface OperationContext {
  /** The client's method: an operation's name (`'listPets'`), or `'request'`. */
  readonly operation: string;
  /** The HTTP method; for a `request()` refused before it was checked, what it was given, or `''`. */
  readonly method: string;
  /**
   * The path template under the base URL: `/pets`, `/pets/{petId}`; for `request()`, its path with
   * numeric segments as `{id}`, or `''` when it was refused before it was checked.
   */
  readonly path: string;
  /** The base URL, ending in `/v1/`. */
  readonly baseUrl: string;
  /** How many attempts were sent: 0 for a call refused before sending. */
  readonly attempts: number;
  /** The status of the last response; absent when none came. */
  readonly status?: number;
  /** The request id of the last response (`X-Request-Id` or `Request-Id`); absent when it had none. */
  readonly requestId?: string | undefined;
  /** Set when the call fails: the error it rejects with, the same `PetStoreError` the caller gets. */
  readonly error?: unknown;
}

/**
 * The context of one HTTP attempt, traced on {@link DIAGNOSTICS_CHANNELS}.attempt around the
 * `fetch` and the reading of the whole body. `status`, `rateLimit` and `requestId` are set before
 * `asyncEnd`; when no response came, `error` is what the `fetch` failed with (a `TypeError`, an
 * `AbortError` or ky's `TimeoutError`), as the channel sets it. No headers are given: the API key
 * cannot reach a subscriber.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { type AttemptContext, DIAGNOSTICS_CHANNELS } from 'animal-store-sdk/diagnostics';
 *
 * subscribe(`tracing:${DIAGNOSTICS_CHANNELS.attempt}:asyncEnd`, (message) => {
 *   const attempt = message as AttemptContext;
 *   console.log(attempt.method, attempt.url, attempt.resendCount, attempt.status, attempt.requestId);
 * });
 * ```
 */
export interface AttemptContext {
  /** The client's method the attempt belongs to, as in {@link OperationContext.operation}. */
  readonly operation: string;
  /** The call the attempt belongs to. */
  readonly call: OperationContext;
  /** 0 for the first attempt of a call, 1 for the first retry, and so on. */
  readonly resendCount: number;
  /** The HTTP method. */
  readonly method: string;
  /** The full URL, query included; the API key, should it appear, replaced by `[redacted]`. */
  readonly url: string;
  /** The response's status; absent when none came. */
  readonly status?: number;
  /** The response's `X-RateLimit-*` reading, `null` when it carried none; absent when no response came. */
  readonly rateLimit?: RateLimit | null;
  /** The response's request id; absent when it carried none. */
  readonly requestId?: string | undefined;
  /** Set when no response came: what the `fetch` failed with. */
  readonly error?: unknown;
}

/**
 * One wait before an attempt, published on {@link DIAGNOSTICS_CHANNELS}.wait before the wait starts:
 * the same waits `onWait` hears, once per wait and call.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type WaitMessage } from 'animal-store-sdk/diagnostics';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.wait, (message) => {
 *   const { operation, reason, ms } = message as WaitMessage;
 *   console.log(`${operation} waits ${ms} ms (${reason})`);
 * });
 * ```
 */
export interface WaitMessage {
  /** The client's method that waits, as in {@link OperationContext.operation}. */
  readonly operation: string;
  /** The call that waits. */
  readonly call: OperationContext;
  /** Why it waits. */
  readonly reason: WaitReason;
  /** How long, in milliseconds: the wait taken. */
  readonly ms: number;
}

/**
 * A shared rate-limit store wrapped in `withFallback` (the Redis store is) stopped answering, so this
 * process paces alone on its share of the budget (`'fallback'`), or answers again (`'return'`).
 * Published on {@link DIAGNOSTICS_CHANNELS}.store, once per outage and once per return.
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type StoreMessage } from 'animal-store-sdk/diagnostics';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.store, (message) => {
 *   const event = message as StoreMessage;
 *   if (event.event === 'fallback') console.warn(`${event.store} is away (${event.reason}); pacing alone`);
 * });
 * ```
 */
export interface StoreMessage {
  /** `'fallback'`: the store failed and the process paces alone; `'return'`: it answers again. */
  readonly event: 'fallback' | 'return';
  /** What the store is called in warnings, e.g. `'Redis'`. */
  readonly store: string;
  /** The base URL whose budget the store keeps, ending in `/v1/`. */
  readonly baseUrl: string;
  /** On `'fallback'`: the share of each window's remaining budget the process now spends. */
  readonly share?: number;
  /** On `'fallback'`: why the store failed (its error's message, the API key redacted). */
  readonly reason?: string;
}

/**
 * A client's queue, published on {@link DIAGNOSTICS_CHANNELS}.queue: `'change'` each time a call
 * starts or stops waiting (a call the budget lets go at once never waits), `'refusal'` each time
 * the client refuses a call, nothing sent (its `code`: `client_rate_limited`, `client_queue_full`,
 * `client_deadline` or `client_closed`).
 *
 * @example
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type QueueMessage } from 'animal-store-sdk/diagnostics';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.queue, (message) => {
 *   const queue = message as QueueMessage;
 *   if (queue.event === 'refusal') console.warn(`${queue.operation} refused: ${queue.code}`);
 *   else console.log(`${queue.waiting} waiting, ${queue.inFlight} in flight`);
 * });
 * ```
 */
export interface QueueMessage {
  /** `'change'`: the number of calls waiting changed; `'refusal'`: a call was refused. */
  readonly event: 'change' | 'refusal';
  /** The client's base URL, ending in `/v1/`. */
  readonly baseUrl: string;
  /** Calls waiting now. */
  readonly waiting: number;
  /** Requests in flight now. */
  readonly inFlight: number;
  /** On `'refusal'`: the client's method refused, as in {@link OperationContext.operation}. */
  readonly operation?: string;
  /** On `'refusal'`: the error's `code`. */
  readonly code?: string;
}
