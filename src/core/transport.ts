/**
 * The one request pipeline, on ky: bearer token, per-attempt timeout, retries with backoff,
 * the client's rate-limit gate, response parsing with the zod schemas, and the mapping of every
 * failure to a {@link PetStoreError}.
 *
 * @module
 */
import ky, { isHTTPError, isNetworkError, isTimeoutError, type KyInstance, SchemaValidationError } from 'ky';
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
  /** Extra headers for this call. */
  headers?: Record<string, string> | undefined;
}

/** One operation's request, as the client describes it. */
export interface OperationRequest<T> {
  /** The operation name, for warnings and the rate-limit hook. */
  operation: string;
  method: 'GET' | 'POST';
  /** The path relative to the base URL, without a leading slash. */
  path: string;
  searchParams?: Record<string, string | number | undefined>;
  json?: unknown;
  /** The schema of a successful response's body. */
  schema: z.ZodType<T>;
}

/** What one call learns as it goes: the body of its latest response, kept for error reports. */
interface CallState {
  body: ArrayBuffer | undefined;
}

/** Statuses whose responses have no body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

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
    this.#ky = ky.create({
      baseUrl: config.baseUrl,
      headers: [...config.headers, ['authorization', `Bearer ${config.apiKey}`]],
      throwHttpErrors: true,
      hooks: {
        beforeRequest: [({ options }) => this.#pass(options.context)],
        beforeRetry: [({ options }) => this.#pass(options.context)],
      },
    });
  }

  /** The latest rate-limit reading, or `null` before any response carried one. */
  get rateLimit(): RateLimit | null {
    return this.#gate.rateLimit;
  }

  /** Sends the request and resolves with its parsed body and response. */
  async request<T>(spec: OperationRequest<T>, options: CallOptions): Promise<WithResponse<T>> {
    const config = this.#config;
    const call: CallState = { body: undefined };
    const pending = this.#ky(spec.path, {
      method: spec.method,
      searchParams: spec.searchParams,
      json: spec.json,
      signal: options.signal ?? null,
      timeout: options.timeout ?? config.timeout,
      headers: options.headers ?? [],
      // The hooks wait on the caller's signal: the request's own also carries ky's per-attempt
      // timeout, which has already fired when a timed-out attempt is retried.
      context: { operation: spec.operation, signal: options.signal },
      fetch: (request, init) => this.#send(spec.operation, call, request, init),
      retry: {
        limit: options.maxRetries ?? config.maxRetries,
        methods: ['get', 'post'],
        statusCodes: RETRY_STATUS_CODES,
        afterStatusCodes: [429, 503],
        maxRetryAfter: config.maxRetryWait,
        retryOnTimeout: true,
        delay: backoffDelay,
        jitter: withJitter,
        shouldRetry: ({ error }) =>
          shouldRetry({ method: spec.method, error, maxRetryWait: config.maxRetryWait, now: Date.now() }),
      },
    });
    try {
      const data = await pending.json(spec.schema);
      const response = await pending;
      return { data, response, rateLimit: parseRateLimit(response.headers) };
    } catch (error) {
      throw this.#toPetStoreError(error, spec, call, options.signal);
    }
  }

  async #pass(context: Record<string, unknown>): Promise<void> {
    const { operation, signal } = context as { operation: string; signal: AbortSignal | undefined };
    await this.#gate.pass(operation, signal);
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
    let response: Response | undefined;
    try {
      // The global fetch is looked up per request, so a client created before a mock is installed
      // (msw's `server.listen()`, say) still goes through it.
      response = await (this.#config.fetch ?? globalThis.fetch)(request, init);
      call.body = NULL_BODY_STATUSES.has(response.status) ? undefined : await response.arrayBuffer();
      const { status, statusText, headers } = response;
      return new Response(call.body ?? null, { status, statusText, headers });
    } finally {
      this.#observe(operation, response);
    }
  }

  #observe(operation: string, response: Response | undefined): void {
    if (response === undefined) {
      this.#gate.settle(undefined);
      return;
    }
    const { headers, status } = response;
    const cooldown = status === 429 ? requestedWait(headers, Date.now()) : undefined;
    this.#gate.settle(parseRateLimit(headers), cooldown);
    if (this.#config.deprecationWarnings) {
      const notice = deprecationNotice(operation, headers);
      if (notice !== undefined) warnOnce(this.#config.logger, operation, redact(notice, this.#config.apiKey));
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
    const secret = this.#config.apiKey;
    if (isHTTPError(error)) {
      const { response } = error;
      return errorForStatus(
        {
          status: response.status,
          statusText: redact(response.statusText, secret),
          headers: redact(response.headers, secret),
          body: redact(error.data ?? bodyText(call), secret),
          rateLimit: parseRateLimit(response.headers),
        },
        requestedWait(response.headers, Date.now()) ?? null,
      );
    }
    if (isTimeoutError(error)) return new APIConnectionTimeoutError(`${where} timed out.`);
    if (error instanceof SchemaValidationError || error instanceof SyntaxError) {
      const issues = error instanceof SchemaValidationError ? (error.issues as z.core.$ZodIssue[]) : [];
      const problem =
        error instanceof SyntaxError
          ? 'is not valid JSON'
          : `does not match the documented shape: ${describeIssues(issues)}`;
      return new ResponseValidationError(
        `The response to ${where} ${problem}`,
        issues,
        redact(bodyValue(call), secret),
      );
    }
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

/** The latest response body as text, or `undefined` when there was none. */
function bodyText(call: CallState): string | undefined {
  return call.body === undefined || call.body.byteLength === 0
    ? undefined
    : new TextDecoder().decode(call.body);
}

/** The latest response body as received: parsed JSON, else its text (`''` when empty). */
function bodyValue(call: CallState): unknown {
  const text = bodyText(call) ?? '';
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
