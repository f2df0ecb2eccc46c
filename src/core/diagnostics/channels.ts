/**
 * Publishing on the SDK's diagnostics channels ({@link DIAGNOSTICS_CHANNELS}), only while someone
 * listens: without a subscriber a call costs a few checks and allocates nothing more.
 *
 * @module
 */
import type * as diagnostics from 'node:diagnostics_channel';
import { readRequestId } from '../../shared/request-id.js';
import { endpoint } from '../request/request-path.js';
import type { RateLimit, RateLimitWait } from '../types.js';
import {
  type AttemptContext,
  DIAGNOSTICS_CHANNELS,
  type OperationContext,
  type QueueMessage,
  type StoreMessage,
  type WaitMessage,
} from './diagnostics.js';

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A call's context, as the client fills it in. */
export type OperationTrace = Writable<OperationContext>;

/** An attempt's context, as the client fills it in. */
export type AttemptTrace = Writable<AttemptContext>;

interface Channels {
  readonly operation: diagnostics.TracingChannel<unknown, OperationTrace>;
  readonly attempt: diagnostics.TracingChannel<unknown, AttemptTrace>;
  readonly wait: diagnostics.Channel<unknown, WaitMessage>;
  readonly store: diagnostics.Channel<unknown, StoreMessage>;
  readonly queue: diagnostics.Channel<unknown, QueueMessage>;
}

/**
 * The channels, or `undefined` where the runtime has none. `process.getBuiltinModule` loads the
 * module without an `import`, so a browser bundle neither holds nor asks for it.
 */
function load(): Channels | undefined {
  const host = globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } };
  const module = host.process?.getBuiltinModule?.('node:diagnostics_channel') as
    | typeof diagnostics
    | undefined;
  if (typeof module?.tracingChannel !== 'function') return undefined;
  return {
    operation: module.tracingChannel(DIAGNOSTICS_CHANNELS.operation),
    attempt: module.tracingChannel(DIAGNOSTICS_CHANNELS.attempt),
    wait: module.channel(DIAGNOSTICS_CHANNELS.wait) as Channels['wait'],
    store: module.channel(DIAGNOSTICS_CHANNELS.store) as Channels['store'],
    queue: module.channel(DIAGNOSTICS_CHANNELS.queue) as Channels['queue'],
  };
}

const channels = load();

/** Whether anyone listens to a tracing channel; Bun's lack `hasSubscribers`, so their parts are asked. */
function listened(channel: diagnostics.TracingChannel<unknown, object>): boolean {
  return (
    channel.hasSubscribers ??
    (channel.start.hasSubscribers ||
      channel.end.hasSubscribers ||
      channel.asyncStart.hasSubscribers ||
      channel.asyncEnd.hasSubscribers ||
      channel.error.hasSubscribers)
  );
}

/** What the client knows of a call as it starts: its method and path template. */
export interface CallRoute {
  readonly method: string;
  readonly path: string;
}

/** A call as the transport records it: what the channels need of it. */
export interface TracedCall {
  /** The call's context, or `undefined` while no one listens. */
  readonly trace: OperationTrace | undefined;
  /** The attempts sent so far. */
  readonly attempts: number;
  /** Keeps the API key out of what subscribers get. */
  readonly redact: <V>(value: V) => V;
  /** A URL as subscribers get it: what the caller wrote redacted, the model's paths as they are. */
  shown(text: string): string;
}

/** What a raw request's trace shows before it is checked: the method it was given, and no path. */
export function rawRoute(request: { readonly method?: unknown }): CallRoute {
  const method = request?.method;
  return { method: typeof method === 'string' ? method : '', path: '' };
}

/**
 * Gives a raw request's call, once checked, its method and its endpoint (the path with numeric
 * segments folded: `/store/orders/{id}`).
 */
export function nameCall(
  trace: OperationTrace | undefined,
  request: { readonly method: string; readonly path: string; readonly shownPath?: string | undefined },
): void {
  if (trace === undefined) return;
  trace.method = request.method;
  trace.path = endpoint(request.shownPath ?? request.path);
}

/**
 * Runs `run` traced on `channel` (`tracePromise`: subscribers' stores bound at `start` are current
 * in all it does). The traced promise resolves with nothing, so that no `result` (a `Response`,
 * which could carry the key back) reaches a subscriber.
 */
function traced<T, C extends object>(
  channel: diagnostics.TracingChannel<unknown, C>,
  context: C,
  run: () => Promise<T>,
): Promise<T> {
  if (!listened(channel)) return run();
  let result: T;
  return channel
    .tracePromise(
      () =>
        run().then((value) => {
          result = value;
        }),
      context,
    )
    .then(() => result);
}

/**
 * Runs a call, traced on the operation channel. `run` gets the call's context when anyone listens
 * to calls, attempts or waits; else `undefined`, and the call publishes nothing.
 */
export function traceCall<T>(
  operation: string,
  { method, path }: CallRoute,
  baseUrl: string,
  run: (trace: OperationTrace | undefined) => Promise<T>,
): Promise<T> {
  if (
    channels === undefined ||
    !(listened(channels.operation) || listened(channels.attempt) || channels.wait.hasSubscribers)
  ) {
    return run(undefined);
  }
  const trace: OperationTrace = { operation, method, path, baseUrl, attempts: 0 };
  return traced(channels.operation, trace, () => run(trace));
}

/**
 * Runs one attempt of a traced call, traced on the attempt channel. `run` gets the attempt's
 * context when anyone listens to attempts; else `undefined`.
 */
export function traceAttempt<T>(
  call: TracedCall,
  request: Request | URL | string,
  init: RequestInit | undefined,
  run: (attempt: AttemptTrace | undefined) => Promise<T>,
): Promise<T> {
  const { trace } = call;
  if (trace === undefined || channels === undefined || !listened(channels.attempt)) return run(undefined);
  const attempt: AttemptTrace = {
    operation: trace.operation,
    call: trace,
    resendCount: call.attempts,
    method: request instanceof Request ? request.method : (init?.method ?? 'GET'),
    // Shown only for a listener: what the caller wrote may hold the key.
    url: call.shown(request instanceof Request ? request.url : String(request)),
  };
  return traced(channels.attempt, attempt, () => run(attempt));
}

/** Records what an attempt got in its call's context and in its own: the count, and the response. */
export function observeAttempt(
  { trace, attempts, redact }: TracedCall,
  attempt: AttemptTrace | undefined,
  response: Response | undefined,
  rateLimit: RateLimit | null,
): void {
  if (trace === undefined) return;
  trace.attempts = attempts;
  if (response === undefined) return;
  const requestId = redact(readRequestId(response.headers));
  trace.status = response.status;
  trace.requestId = requestId;
  if (attempt === undefined) return;
  attempt.status = response.status;
  attempt.rateLimit = rateLimit;
  attempt.requestId = requestId;
}

/** Publishes a wait of a traced call. */
export function publishWait(call: TracedCall | undefined, wait: RateLimitWait): void {
  const trace = call?.trace;
  if (trace === undefined || channels === undefined || !channels.wait.hasSubscribers) return;
  channels.wait.publish({ operation: trace.operation, call: trace, reason: wait.reason, ms: wait.waitMs });
}

/** Publishes a shared store's fallback or return. */
export function publishStore(message: StoreMessage): void {
  if (channels?.store.hasSubscribers) channels.store.publish(message);
}

/** The queue's counts as the queue channel shows them. */
export interface QueueCounts {
  readonly baseUrl: string;
  readonly waiting: number;
  readonly inFlight: number;
}

/** A queue the queue channel reports on (the client's transport). */
export interface QueueSource {
  queueCounts(): QueueCounts;
}

/** Publishes the queue's length, or (given `operation` and `code`) a refusal; the counts are read only while someone listens. */
export function publishQueue(queue: QueueSource, operation?: string, code?: string): void {
  if (!channels?.queue.hasSubscribers) return;
  channels.queue.publish(
    operation === undefined
      ? { event: 'change', ...queue.queueCounts() }
      : { event: 'refusal', ...queue.queueCounts(), operation, code },
  );
}
