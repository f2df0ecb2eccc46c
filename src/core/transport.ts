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
import { attemptLine, describeRequest, retryLine } from './attempt-log.js';
import { deprecationNotice, warnOnce } from './deprecation.js';
import { type RateLimitWait, RequestGate } from './gate.js';
import type { HeaderEntries } from './headers.js';
import { InProcessRateLimitStore } from './in-process-store.js';
import type { Log } from './log.js';
import { latestReading, parseRateLimit, type RateLimit, rateLimitOutcome } from './rate-limit.js';
import type { RateLimitStore } from './rate-limit-store.js';
import { redact } from './redact.js';
import {
  backoffDelay,
  RETRY_METHODS,
  RETRY_STATUS_CODES,
  requestedWait,
  retryDecision,
  withJitter,
} from './retry.js';
import { type CallOptions, describeIssues } from './validate.js';

/**
 * A `fetch`-compatible function: what the `fetch` option takes.
 *
 * @example
 * ```ts
 * import { type Fetch, PetStoreClient } from 'animal-store-sdk';
 *
 * // Logs method, URL, status and duration; never the headers, which carry the API key.
 * const timedFetch: Fetch = async (input, init) => {
 *   const request = new Request(input, init);
 *   const started = performance.now();
 *   const response = await fetch(request);
 *   console.log(request.method, request.url, response.status, `${Math.round(performance.now() - started)} ms`);
 *   return response;
 * };
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', fetch: timedFetch });
 * ```
 */
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
  /** Where log lines go, at the configured level, the key already kept out. */
  log: Log;
  deprecationWarnings: boolean;
  pacing: boolean;
  onRateLimit: ((wait: RateLimitWait) => void) | undefined;
  /** Shared pacing state; a fresh in-process store when undefined. */
  rateLimitStore: RateLimitStore | undefined;
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

/**
 * The methods `client.request()` may use.
 *
 * @example
 * ```ts
 * import { type HttpMethod, PetStoreClient } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const method: HttpMethod = 'DELETE';
 * await client.request({ method, path: '/store/orders/7' });
 * ```
 */
export type HttpMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * A query parameter's value in `client.request()`: an array repeats the parameter, `undefined`
 * leaves it out.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type QueryValue } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const query: Record<string, QueryValue> = { status: ['placed', 'approved'], limit: 10, cursor: undefined };
 * await client.request({ method: 'GET', path: '/store/orders', query }); // ?status=placed&status=approved&limit=10
 * ```
 */
export type QueryValue = string | number | boolean | readonly (string | number | boolean)[] | undefined;

/** One operation's request, as the client describes it. */
export interface OperationRequest<T> {
  /** The operation name, for warnings and the rate-limit hook. */
  operation: string;
  method: HttpMethod;
  /** The path relative to the base URL, without a leading slash, already checked. */
  path: string;
  /** Query parameters; those left undefined are not sent. */
  searchParams?: Record<string, QueryValue>;
  json?: unknown;
  /** Headers of this request, checked like the client-wide ones; per-call options override them. */
  headers?: HeaderEntries;
  /** The schema of a successful response's body. */
  schema: z.ZodType<T>;
  /**
   * How a successful body becomes data: `json` (the default) requires JSON; `content-type` reads
   * JSON when the response says it is JSON, the text otherwise, and `undefined` for no body.
   */
  decode?: 'json' | 'content-type';
}

/** What one call learns as it goes. */
interface CallState {
  /** The body of the latest response, read in full by `#send`. */
  body: ArrayBuffer | undefined;
  /** Leases from the gate not yet used by a send, handed back unused if the call ends first. */
  leases: string[];
  /** Attempts sent so far. */
  attempts: number;
}

/**
 * How long past its attempt's timeout a request still counts as in flight for the rate-limit store,
 * should its process die before reporting the outcome.
 */
export const LEASE_MARGIN_MS = 1_000;

/** Statuses whose responses have no body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

const decoder = new TextDecoder();

export class Transport {
  readonly #config: TransportConfig;
  readonly #gate: RequestGate;
  readonly #ky: KyInstance;
  #rateLimit: RateLimit | null = null;

  constructor(config: TransportConfig) {
    this.#config = config;
    this.#gate = new RequestGate({
      store: config.rateLimitStore ?? new InProcessRateLimitStore(),
      scope: Object.freeze({ baseUrl: config.baseUrl, apiKey: config.apiKey }),
      maxWait: config.maxRetryWait,
      pacing: config.pacing,
      onWait: (wait) => {
        if (config.log.enabled('info')) {
          config.log.info(
            `animal-store-sdk: ${wait.operation} waits ${wait.waitMs} ms for the rate limit (${wait.reason})`,
          );
        }
        config.onRateLimit?.(wait);
      },
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
        methods: RETRY_METHODS,
        statusCodes: RETRY_STATUS_CODES,
        afterStatusCodes: [429, 503],
        maxRetryAfter: config.maxRetryWait,
        retryOnTimeout: true,
        delay: backoffDelay,
        jitter: withJitter,
        shouldRetry: ({ error, retryCount }) => {
          const request = (error as { request?: Request }).request;
          const decision = retryDecision({
            method: request?.method ?? '',
            error,
            maxRetryWait: config.maxRetryWait,
            now: Date.now(),
          });
          if (config.log.enabled('info')) {
            config.log.info(retryLine(this.#describe(request), decision, retryCount));
          }
          // `undefined` lets ky wait as the service asked; `true` makes it back off.
          if (!decision.retry) return false;
          return decision.timing === 'backoff' ? true : undefined;
        },
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
    return this.#rateLimit;
  }

  /** Sends the request and resolves with its parsed body and response. */
  async request<T>(spec: OperationRequest<T>, options: CallOptions): Promise<WithResponse<T>> {
    const call: CallState = { body: undefined, leases: [], attempts: 0 };
    // The hooks wait on the caller's signal: the request's own also carries ky's per-attempt
    // timeout, which has already fired when a timed-out attempt is retried.
    const leaseMs = (options.timeout ?? this.#config.timeout) + LEASE_MARGIN_MS;
    const context: RetryContext = { operation: spec.operation, signal: options.signal, call, leaseMs };
    try {
      await this.#pass(context);
      const response = await this.#ky(this.#url(spec), {
        method: spec.method,
        ...(spec.json !== undefined && { json: spec.json }),
        ...(options.signal !== undefined && { signal: options.signal }),
        ...(options.timeout !== undefined && { timeout: options.timeout }),
        ...(spec.headers !== undefined && { headers: callHeaders(spec.headers, options.headers) }),
        ...(spec.headers === undefined && options.headers !== undefined && { headers: options.headers }),
        ...(options.maxRetries !== undefined && { retry: { limit: options.maxRetries } }),
        context: context as unknown as Record<string, unknown>,
        fetch: (request, init) => this.#send(spec.operation, call, request, init),
      });
      return {
        data: this.#parse(spec, call, response),
        response,
        rateLimit: parseRateLimit(response.headers),
      };
    } catch (error) {
      const failure = this.#toPetStoreError(error, spec, call, options.signal);
      if (this.#config.log.enabled('debug')) {
        const name = failure instanceof Error ? failure.name : typeof failure;
        this.#config.log.debug(
          `animal-store-sdk: ${spec.method} /${spec.path} failed after ${call.attempts} attempt(s): ${name}`,
        );
      }
      throw failure;
    } finally {
      for (const lease of call.leases.splice(0)) this.#gate.settle(lease, {});
    }
  }

  /** The absolute URL, its query already encoded: ky then builds one `Request` instead of three. */
  #url(spec: OperationRequest<unknown>): string {
    const url = this.#config.baseUrl + spec.path;
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(spec.searchParams ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) query.append(name, String(item));
      else query.set(name, String(value));
    }
    return query.size === 0 ? url : `${url}?${query}`;
  }

  async #pass(context: RetryContext): Promise<void> {
    context.call.leases.push(await this.#gate.pass(context.operation, context.leaseMs, context.signal));
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
    const lease = call.leases.shift();
    call.attempts++;
    const started = performance.now();
    let response: Response | undefined;
    let failure: unknown;
    try {
      // The global fetch is looked up per request, so a client created before a mock is installed
      // (msw's `server.listen()`, say) still goes through it.
      response = await (this.#config.fetch ?? globalThis.fetch)(request, init);
      call.body = NULL_BODY_STATUSES.has(response.status) ? undefined : await response.arrayBuffer();
      if (response.ok) return response;
      // ky reads an error's body for itself, so it gets a fresh copy of what was read here.
      const { status, statusText, headers } = response;
      return new Response(call.body ?? null, { status, statusText, headers });
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      this.#observe(operation, response, lease);
      if (this.#config.log.enabled('debug')) {
        const duration = performance.now() - started;
        this.#config.log.debug(
          attemptLine(this.#describe(request, init), call.attempts, duration, response, failure),
        );
      }
    }
  }

  /**
   * Parses the body `#send` read with the operation's schema. ky's `.json(schema)` would read the
   * body a second time; reading it inside the attempt is what lets a cut-off body be retried.
   */
  #parse<T>(spec: OperationRequest<T>, call: CallState, response: Response): T {
    const where = `${spec.method} /${spec.path}`;
    const text = call.body === undefined ? '' : decoder.decode(call.body);
    let json: unknown;
    if (spec.decode === 'content-type' && text === '') json = undefined;
    else if (spec.decode === 'content-type' && !isJson(response.headers)) json = text;
    else {
      try {
        json = JSON.parse(text);
      } catch {
        throw new ResponseValidationError(
          `The response to ${where} is not valid JSON.`,
          [],
          this.#redact(text),
          this.#redact(text),
        );
      }
    }
    const result = spec.schema.safeParse(json);
    if (result.success) return result.data;
    throw new ResponseValidationError(
      `The response to ${where} does not match the expected shape: ${describeIssues(result.error.issues)}`,
      result.error.issues,
      this.#redact(json),
      this.#redact(text),
    );
  }

  /** `GET /pets?limit=10`: the request as the log shows it, relative to the base URL. */
  #describe(request: Request | URL | string | undefined, init?: RequestInit): string {
    return describeRequest(this.#config.baseUrl, request, init);
  }

  #redact<T>(value: T): T {
    return redact(value, this.#config.apiKey);
  }

  #observe(operation: string, response: Response | undefined, lease: string | undefined): void {
    if (response === undefined) {
      if (lease !== undefined) this.#gate.settle(lease, {});
      return;
    }
    const { headers } = response;
    const reading = parseRateLimit(headers);
    if (lease !== undefined) this.#gate.settle(lease, rateLimitOutcome(response, reading, Date.now()));
    if (reading !== null) this.#rateLimit = latestReading(this.#rateLimit, reading);
    if (this.#config.deprecationWarnings) {
      const notice = deprecationNotice(operation, headers);
      if (notice !== undefined) warnOnce(this.#config.log, operation, notice);
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

/** Whether a response says its body is JSON: `application/json` or a `+json` type. */
function isJson(headers: Headers): boolean {
  const type = headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || type.endsWith('+json');
}

/** A request's own headers, then the per-call ones, later names replacing earlier ones. */
function callHeaders(own: HeaderEntries | undefined, perCall: HeaderEntries | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of [...(own ?? []), ...(perCall ?? [])]) headers.set(name, value);
  return headers;
}

/** What the retry hook needs to know of its call, carried in ky's `context`. */
interface RetryContext {
  operation: string;
  signal: AbortSignal | undefined;
  call: CallState;
  /** How long a lease for one attempt lasts. */
  leaseMs: number;
}
