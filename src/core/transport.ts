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
import { parseRateLimit, type RateLimit } from './rate-limit.js';
import { backoffDelay, RETRY_STATUS_CODES, requestedWait, shouldRetry, withJitter } from './retry.js';
import { describeIssues } from './validate.js';

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
  headers: Record<string, string>;
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

/** Drops any `Authorization` header, so that nothing replaces the bearer token. */
function withoutAuthorization(headers: Record<string, string> | undefined): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'authorization') kept[name] = value;
  }
  return kept;
}

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
      headers: { ...withoutAuthorization(config.headers), authorization: `Bearer ${config.apiKey}` },
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
  async request<T>(spec: OperationRequest<T>, options: RequestOptions = {}): Promise<WithResponse<T>> {
    const config = this.#config;
    let rawBody: unknown;
    const pending = this.#ky(spec.path, {
      method: spec.method,
      searchParams: spec.searchParams,
      json: spec.json,
      signal: options.signal ?? null,
      timeout: options.timeout ?? config.timeout,
      headers: withoutAuthorization(options.headers),
      // The hooks wait on the caller's signal: the request's own also carries ky's per-attempt
      // timeout, which has already fired when a timed-out attempt is retried.
      context: { operation: spec.operation, signal: options.signal },
      fetch: (request, init) => this.#send(spec.operation, request, init),
      parseJson: (text) => {
        rawBody = text;
        if (text === '') return undefined;
        rawBody = JSON.parse(text);
        return rawBody;
      },
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
      throw this.#toPetStoreError(error, spec, rawBody, options.signal);
    }
  }

  async #pass(context: Record<string, unknown>): Promise<void> {
    const { operation, signal } = context as { operation: string; signal: AbortSignal | undefined };
    await this.#gate.pass(operation, signal);
  }

  /** Sends one attempt through the gate's accounting, and reads what its response says. */
  async #send(operation: string, request: Request | URL | string, init?: RequestInit): Promise<Response> {
    let response: Response | undefined;
    try {
      // The global fetch is looked up per request, so a client created before a mock is installed
      // (msw's `server.listen()`, say) still goes through it.
      response = await (this.#config.fetch ?? globalThis.fetch)(request, init);
      return response;
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
      if (notice !== undefined) warnOnce(this.#config.logger, operation, notice);
    }
  }

  #toPetStoreError(
    error: unknown,
    spec: OperationRequest<unknown>,
    rawBody: unknown,
    signal: AbortSignal | undefined,
  ): unknown {
    if (error instanceof PetStoreError) return error;
    if (signal?.aborted) return new APIUserAbortError();
    const where = `${spec.method} /${spec.path}`;
    if (isHTTPError(error)) {
      const { response } = error;
      return errorForStatus(
        {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
          body: error.data,
          rateLimit: parseRateLimit(response.headers),
        },
        requestedWait(response.headers, Date.now()) ?? null,
      );
    }
    if (isTimeoutError(error)) return new APIConnectionTimeoutError(`${where} timed out.`);
    if (isNetworkError(error)) {
      return new APIConnectionError(`Could not reach the Animal Store service for ${where}.`, {
        cause: error.cause,
      });
    }
    if (error instanceof SchemaValidationError) {
      const issues = error.issues as z.core.$ZodIssue[];
      return new ResponseValidationError(
        `The response to ${where} does not match the documented shape: ${describeIssues(issues)}`,
        issues,
        rawBody,
      );
    }
    if (error instanceof SyntaxError) {
      return new ResponseValidationError(`The response to ${where} is not valid JSON.`, [], rawBody);
    }
    if (error instanceof TypeError) {
      // A fetch implementation that fails in its own words (not one ky recognises) still failed to connect.
      return new APIConnectionError(`Could not reach the Animal Store service for ${where}.`, {
        cause: error,
      });
    }
    return error;
  }
}
