/**
 * One call's state, from its arguments to its last attempt: what the transport, the retry policy,
 * the queue, the channels and the error a failure becomes read of it.
 *
 * @module
 */
import { type KeyRedactor, keyRedactor } from './api-key.js';
import type { OperationTrace, TracedCall } from './diagnostics/channels.js';
import type { HeaderEntries } from './headers.js';
import type { CallOptions, ClientConfig } from './options.js';
import type { CallBound } from './queue/bound.js';
import type { OpenCall } from './queue/open-calls.js';
import type { DecodeMode } from './request/decode.js';
import type { FailedCall } from './request/failure.js';
import type { RequestedWait } from './request/retry.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { HttpMethod, QueryValue, RateLimit } from './types.js';

/** One call's request, as the client describes it. */
export interface RequestSpec<T> {
  /** The operation's name, for warnings, waits and logs. */
  readonly operation: string;
  readonly method: HttpMethod;
  /** Whether the operation may be sent twice; by default, whether its method is idempotent. */
  readonly idempotent?: boolean | undefined;
  /** The path relative to the base URL, without a leading slash, already checked. */
  readonly path: string;
  /**
   * For a request the caller wrote (`request()`): its path as traces show it, the key redacted; its
   * path and query are redacted in every line. The model's are the SDK's own, shown as they are.
   */
  readonly shownPath?: string | undefined;
  /** Query parameters; those left undefined are not sent. */
  readonly query?: Record<string, QueryValue> | undefined;
  readonly json?: unknown;
  /** Headers of this request, checked like the client-wide ones; per-call options override them. */
  readonly headers?: HeaderEntries | undefined;
  /** The schema of a successful response's body; without one, the body is the data. */
  readonly schema?: StandardSchemaV1<unknown, T> | undefined;
  /** How a successful body becomes data. Default `json`. */
  readonly decode?: DecodeMode;
  /** What to tell the caller when an attempt may have reached the service and its outcome is unknown. */
  readonly ifUnknown?: string | undefined;
}

/**
 * What one call learns as it goes. A class rather than an object literal: a literal with getters is
 * built one property at a time, on every call.
 */
export class Call implements TracedCall, FailedCall, OpenCall, CallBound {
  // `declare`: the fields are the constructor's to set, and a bundle spells each name once.
  declare readonly spec: RequestSpec<unknown>;
  declare readonly trace: OperationTrace | undefined;
  /** With a key function: the keys this call's attempts used. */
  declare readonly keys: KeyRedactor | undefined;
  declare readonly redact: <V>(value: V) => V;
  /** The caller's signal. */
  declare readonly signal: AbortSignal | undefined;
  declare readonly deadline: number;
  declare queueLeftMs: number;
  /** Aborts what the call waits on or sends: the caller's signal, closing and attempt timeouts abort it. */
  controller = new AbortController();
  declare sending?: boolean;
  /** Retries this call may make. */
  declare readonly maxRetries: number;
  /** The most bytes of a response's body read. */
  declare readonly maxResponseBytes: number;
  /** The client's `fetchOptions` with the call's over them, handed to every attempt's fetch. */
  declare readonly fetchOptions: RequestInit | undefined;
  /** How long one attempt may take (`timeout`). */
  declare readonly timeout: number;
  /** Leases from the gate not yet used by an attempt, handed back unused if the call ends first. */
  readonly leases: string[] = [];
  attempts = 0;
  /** The wait before the next attempt, as the retry policy decided. */
  declare retryWaitMs?: number;
  /** The latest response, as `fetch` gave it. */
  declare previous?: Response | undefined;
  /** The text of the latest response's body, read in full by its attempt. */
  declare body?: string | undefined;
  /** What the latest response asked the caller to wait, read against the service's clock. */
  declare requested?: RequestedWait | undefined;
  /** The latest response's rate-limit reading. */
  declare reading?: RateLimit | null;
  /** When a wait already reported for the next attempt ends; the gate reports only what goes beyond. */
  declare reportedUntil?: number;
  declare outcomeUnknown?: boolean;
  declare notRetried?: string | undefined;
  /** The path relative to the base URL, with its query. */
  declare readonly relative: string;

  constructor(
    spec: RequestSpec<unknown>,
    options: CallOptions,
    config: ClientConfig,
    trace: OperationTrace | undefined,
  ) {
    this.spec = spec;
    this.trace = trace;
    // A key function's keys: each call hides those its attempts used, so none are kept for the client's life.
    const keys = config.apiKey.fixed === undefined ? keyRedactor() : undefined;
    this.keys = keys;
    this.redact = keys?.redact ?? config.apiKey.redact;
    this.signal = options.signal;
    const callTimeout = options.callTimeout ?? config.callTimeout;
    this.deadline = callTimeout === undefined ? Infinity : Date.now() + callTimeout;
    this.queueLeftMs = config.maxQueueWait;
    this.fetchOptions = options.fetchOptions
      ? { ...config.fetchOptions, ...options.fetchOptions }
      : config.fetchOptions;
    this.maxRetries = options.maxRetries ?? config.maxRetries;
    this.maxResponseBytes = options.maxResponseBytes ?? config.maxResponseBytes;
    this.timeout = options.timeout ?? config.timeout;
    this.relative = target(spec);
  }

  /** `GET /pets`: the request, for messages. */
  get where(): string {
    return this.#request(this.spec.path);
  }

  /** `GET /pets?limit=10`: the request as log lines show it, its URL relative to the base URL. */
  get described(): string {
    return this.#request(this.relative);
  }

  /**
   * `text` as lines and traces show it: what the caller wrote (`request()`) redacted, with the keys
   * known when shown (a key function's new key is redacted from its first use); the model's paths
   * are the SDK's own.
   */
  shown(text: string): string {
    return this.spec.shownPath === undefined ? text : this.redact(text);
  }

  /** The method and `path`, shown. */
  #request(path: string): string {
    return `${this.spec.method} /${this.shown(path)}`;
  }
}

/**
 * The path relative to the base URL with its query, already encoded: ky then builds one `Request`
 * instead of three. An array repeats the parameter; `undefined` leaves it out.
 */
function target({ path, query }: RequestSpec<unknown>): string {
  if (query === undefined) return path;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const item of [value].flat()) if (item !== undefined) search.append(name, String(item));
  }
  return search.size === 0 ? path : `${path}?${search}`;
}
