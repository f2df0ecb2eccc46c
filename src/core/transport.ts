/**
 * The one request pipeline, on ky: bearer token, per-attempt timeout, retries with backoff,
 * the client's rate-limit gate, response parsing with the zod schemas, and the mapping of every
 * failure to a {@link PetStoreError}.
 *
 * @module
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance } from 'ky';
import type * as z from 'zod';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  errorForStatus,
  PetStoreError,
  ResponseValidationError,
} from '../errors.js';
import type { WithResponse } from './api-promise.js';
import { deprecationNotice, type Logger, warnOnce } from './deprecation.js';
import { type RateLimitWait, RequestGate } from './gate.js';
import type { HeaderEntries } from './headers.js';
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { redact } from './redact.js';
import { backoffDelay, RETRY_STATUS_CODES, requestedWait, shouldRetry, withJitter } from './retry.js';
import { type CallOptions, describeIssues } from './validate.js';

/** A `fetch`-compatible function. */
export type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;

/** The client settings the pipeline runs on, already validated. */
export interface TransportConfig {
  apiKey: string;
  /** The service's base URL, ending in `/v1/`. */
  baseUrl: string;
  maxRetries: number;
  timeout: number;
  maxRetryWait: number;
  fetch: Fetch | undefined;
  headers: HeaderEntries;
  logger: Logger;
  deprecationWarnings: boolean;
  pacing: boolean;
  onRateLimit: ((wait: RateLimitWait) => void) | undefined;
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
  /** Retries after the first attempt. */
  maxRetries?: number | undefined;
  /** Extra headers for this call; the same names are refused as for the client-wide `headers`. */
  headers?: Record<string, string> | undefined;
}

/** One operation's request, as the client describes it. */
export interface OperationRequest<T> {
  /** The operation name, for warnings and the rate-limit hook. */
  operation: string;
  method: 'GET' | 'POST';
  /** The path relative to the base URL, without a leading slash. */
  path: string;
  /** Query parameters; those left undefined are not sent. */
  searchParams?: Record<string, string | number | undefined>;
  json?: unknown;
  /** The schema of a successful response's body. */
  schema: z.ZodType<T>;
}

/** What one call learns as it goes. */
interface CallState {
  /** The body of the latest response, read in full by `#send`. */
  body: ArrayBuffer | undefined;
  /** Passes through the gate not yet followed by a send, released if the call ends first. */
  unsent: number;
}

/** Statuses whose responses have no body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const decoder = new TextDecoder();

export class Transport {
  readonly #config: TransportConfig;
  readonly #gate: RequestGate;
  readonly #ky: KyInstance;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#gate = new RequestGate({
      now: () => Date.now(),
      maxWait: config.maxRetryWait,
      pacing: config.pacing,
      onWait: config.onRateLimit,
    });
    // Everything that does not vary by call is set once here: ky merges per-call options into it.
    this.#ky = ky.create({
      headers: [
        ...config.headers,
        ['accept', 'application/json'],
        ['authorization', `Bearer ${config.apiKey}`],
      ],
      timeout: config.timeout,
      throwHttpErrors: true,
      retry: {
        limit: config.maxRetries,
        methods: ['get', 'post'],
        statusCodes: RETRY_STATUS_CODES,
        afterStatusCodes: [429, 503],
        maxRetryAfter: config.maxRetryWait,
        retryOnTimeout: true,
        delay: backoffDelay,
        jitter: withJitter,
        shouldRetry: ({ error }) =>
          shouldRetry({
            method: (error as { request?: Request }).request?.method ?? '',
            error,
            maxRetryWait: config.maxRetryWait,
            now: Date.now(),
          }),
      },
      hooks: {
        // The first attempt passes the gate before ky starts, so its wait is not counted against
        // the per-attempt timeout; retries pass here, after ky's own backoff.
        beforeRetry: [({ options }) => this.#pass(options.context as unknown as RetryContext)],
      },
    });
  }

  /** The latest rate-limit reading, or `null` before any response carried one. */
  get rateLimit(): RateLimit | null {
    return this.#gate.rateLimit;
  }

  /** Sends the request and resolves with its parsed body and response. */
  async request<T>(spec: OperationRequest<T>, options: CallOptions): Promise<WithResponse<T>> {
    const call: CallState = { body: undefined, unsent: 0 };
    // The hooks wait on the caller's signal: the request's own also carries ky's per-attempt
    // timeout, which has already fired when a timed-out attempt is retried.
    const context: RetryContext = { operation: spec.operation, signal: options.signal, call };
    try {
      await this.#pass(context);
      const response = await this.#ky(this.#url(spec), {
        method: spec.method,
        ...(spec.json !== undefined && { json: spec.json }),
        ...(options.signal !== undefined && { signal: options.signal }),
        ...(options.timeout !== undefined && { timeout: options.timeout }),
        ...(options.headers !== undefined && { headers: options.headers }),
        ...(options.maxRetries !== undefined && { retry: { limit: options.maxRetries } }),
        context: context as unknown as Record<string, unknown>,
        fetch: (request, init) => this.#send(spec.operation, call, request, init),
      });
      return { data: this.#parse(spec, call), response, rateLimit: parseRateLimit(response.headers) };
    } catch (error) {
      throw this.#toPetStoreError(error, spec, call, options.signal);
    } finally {
      for (; call.unsent > 0; call.unsent--) this.#gate.settle(undefined);
    }
  }

  /** The absolute URL, its query already encoded: ky then builds one `Request` instead of three. */
  #url(spec: OperationRequest<unknown>): string {
    const url = this.#config.baseUrl + spec.path;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.searchParams ?? {})) {
      if (value !== undefined) query.set(name, String(value));
    }
    return query.size === 0 ? url : `${url}?${query}`;
  }

  async #pass(context: RetryContext): Promise<void> {
    await this.#gate.pass(context.operation, context.signal);
    context.call.unsent++;
  }

  /**
   * Sends one attempt through the gate's accounting and reads its whole body, so that a body cut
   * off mid-way fails the attempt (and a read is retried) rather than the parsing afterwards.
   */
  async #send(
    operation: string,
    call: CallState,
    request: Request | URL | string,
    init?: RequestInit,
  ): Promise<Response> {
    call.unsent--;
    let response: Response | undefined;
    try {
      // The global fetch is looked up per request, so a client created before a mock is installed
      // (msw's `server.listen()`, say) still goes through it.
      response = await (this.#config.fetch ?? globalThis.fetch)(request, init);
      call.body = NULL_BODY_STATUSES.has(response.status) ? undefined : await response.arrayBuffer();
      if (response.ok) return response;
      // ky reads an error's body for itself, so it gets a fresh copy of what was read here.
      const { status, statusText, headers } = response;
      return new Response(call.body ?? null, { status, statusText, headers });
    } finally {
      this.#observe(operation, response);
    }
  }

  /**
   * Parses the body `#send` read with the operation's schema. ky's `.json(schema)` would read the
   * body a second time; reading it inside the attempt is what lets a cut-off body be retried.
   */
  #parse<T>(spec: OperationRequest<T>, call: CallState): T {
    const where = `${spec.method} /${spec.path}`;
    const text = call.body === undefined ? '' : decoder.decode(call.body);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(
        `The response to ${where} is not valid JSON.`,
        [],
        this.#redact(text),
      );
    }
    const result = spec.schema.safeParse(json);
    if (result.success) return result.data;
    throw new ResponseValidationError(
      `The response to ${where} does not match the documented shape: ${describeIssues(result.error.issues)}`,
      result.error.issues,
      this.#redact(json),
    );
  }

  #redact<T>(value: T): T {
    return redact(value, this.#config.apiKey);
  }

  #observe(operation: string, response: Response | undefined): void {
    if (response === undefined) {
      this.#gate.settle(undefined);
      return;
    }
    const { headers, status, ok } = response;
    const cooldown = status === 429 ? requestedWait(headers, Date.now()) : undefined;
    // Only a success without rate-limit headers says the service does not report them: an error
    // may come from a proxy in front of it.
    this.#gate.settle(parseRateLimit(headers) ?? (ok ? null : undefined), cooldown);
    if (this.#config.deprecationWarnings) {
      const notice = deprecationNotice(operation, headers);
      if (notice !== undefined) warnOnce(this.#config.logger, operation, this.#redact(notice));
    }
  }

  #toPetStoreError(
    error: unknown,
    spec: OperationRequest<unknown>,
    call: CallState,
    signal: AbortSignal | undefined,
  ): unknown {
    if (error instanceof PetStoreError) return error;
    if (signal?.aborted) return new APIUserAbortError();
    const where = `${spec.method} /${spec.path}`;
    if (isHTTPError(error)) {
      const { response } = error;
      const text =
        call.body === undefined || call.body.byteLength === 0 ? undefined : decoder.decode(call.body);
      return errorForStatus(
        {
          status: response.status,
          statusText: this.#redact(response.statusText),
          headers: this.#redact(response.headers),
          body: this.#redact(error.data ?? text),
          rateLimit: parseRateLimit(response.headers),
        },
        requestedWait(response.headers, Date.now()) ?? null,
      );
    }
    if (isTimeoutError(error)) return new APIConnectionTimeoutError(`${where} timed out.`);
    // Network failures, and fetch implementations that fail in their own words with a TypeError
    // (as the Fetch standard has them do), mean no response arrived.
    if (isNetworkError(error) || error instanceof TypeError) {
      return new APIConnectionError(`Could not reach the Animal Store service for ${where}.`, {
        cause: isNetworkError(error) ? error.cause : error,
      });
    }
    return error;
  }
}

/** What the retry hook needs to know of its call, carried in ky's `context`. */
interface RetryContext {
  operation: string;
  signal: AbortSignal | undefined;
  call: CallState;
}
