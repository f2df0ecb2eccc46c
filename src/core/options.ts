/**
 * The client's options and the per-call options: their defaults, the environment variables behind
 * them, and the one validator both are checked by. What is wrong with the client's options is
 * reported when it is constructed; what is wrong with a call's, before anything is sent.
 *
 * @module
 */
import * as z from 'zod';
import { PetStoreError } from '../errors.js';
import { checkBaseUrl } from '../shared/base-url.js';
import { FIELD_VALUE, type HeaderEntries, HeadersSchema } from './headers.js';
import { DEFAULT_LOG_LEVEL, isLogLevel, LOG_LEVELS, Log, type Logger, type LogLevel } from './log.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { Fetch, RateLimitWait } from './types.js';
import { describeIssues, validate } from './validate.js';

/**
 * How to construct a {@link PetStoreClient}. Every field is optional where the environment can
 * supply it.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type ClientOptions } from 'animal-store-sdk';
 *
 * const options: ClientOptions = {
 *   apiKey: 'my-key',
 *   baseUrl: 'https://api.example.com/v1',
 *   maxRetries: 3,
 *   timeout: 10_000,
 * };
 * const client = new PetStoreClient(options);
 * ```
 */
export interface ClientOptions {
  /** The API key, sent as a bearer token. Default: `process.env.PETSTORE_API_KEY`. */
  apiKey?: string | undefined;
  /**
   * The service's base URL: an absolute http(s) URL ending in `/v1` (a trailing slash is fine).
   * Default: `process.env.PETSTORE_BASE_URL`.
   */
  baseUrl?: string | undefined;
  /** Retries after the first attempt, 0 to 10. Default: 2. */
  maxRetries?: number | undefined;
  /** Milliseconds allowed for each attempt. Default: 60,000. */
  timeout?: number | undefined;
  /**
   * The longest wait, in milliseconds, that the client honours automatically when the service
   * asks it to slow down. A longer requested wait fails at once with a `RateLimitError`.
   * Default: 60,000.
   */
  maxRetryWait?: number | undefined;
  /** The `fetch` to send requests with. Default: the global `fetch`, looked up per request. */
  fetch?: Fetch | undefined;
  /**
   * Headers sent with every request. `Authorization`, `Accept`, `Content-Type` and the headers
   * that belong to the connection are set by the client and rejected here.
   */
  headers?: Record<string, string> | undefined;
  /**
   * Where log lines go: any object with `warn`, and optionally `error`, `info` and `debug` (a
   * level the logger lacks goes to `warn`). Default: `console`.
   */
  logger?: Logger | undefined;
  /**
   * How much the client logs: `'off'`, `'error'`, `'warn'` (deprecation warnings), `'info'`
   * (also every retry and every wait) or `'debug'` (also every attempt, with its status and
   * duration). Default: `process.env.PETSTORE_LOG`, else `'warn'`.
   */
  logLevel?: LogLevel | undefined;
  /** Whether deprecated operations warn (once per process each). Default: `true`. */
  deprecationWarnings?: boolean | undefined;
  /**
   * Whether the client paces itself by the `X-RateLimit-*` headers, holding requests it knows
   * the service would refuse until the window resets. The cooldown after a 429 applies either
   * way. Default: `true`.
   */
  pacing?: boolean | undefined;
  /**
   * Told of every wait the client takes before sending, once, before it starts: retries (after
   * `Retry-After`, the rate-limit reset or backoff), the cooldown after a 429, and pacing.
   */
  onRateLimit?: ((wait: RateLimitWait) => void) | undefined;
  /**
   * Where the pacing state lives: the latest rate-limit reading, the requests in flight and the
   * cooldown after a 429. Clients given the same store share one budget per base URL and API key:
   * {@link createInProcessRateLimitStore} within a process, `redisRateLimitStore` from
   * `animal-store-sdk/redis` across processes. Default: a fresh in-process store for this client.
   */
  rateLimitStore?: RateLimitStore | undefined;
}

/** `setTimeout` (and so ky) cannot wait longer than this. */
const MAX_TIMER_MS = 2_147_483_647;

/** The rules the client-wide and the per-call options share. */
const Timeout = z.int().min(1).max(MAX_TIMER_MS);
const MaxRetries = z.int().min(0).max(10);

const isFunction = (value: unknown) => typeof value === 'function';

const ClientOptionsSchema = z.object({
  maxRetries: MaxRetries.default(2),
  timeout: Timeout.default(60_000),
  maxRetryWait: z.int().min(0).max(MAX_TIMER_MS).default(60_000),
  fetch: z.custom<Fetch>(isFunction, 'Expected a fetch function').optional(),
  headers: HeadersSchema.default([]),
  logger: z
    .custom<Logger>(
      (value) => isFunction((value as Partial<Logger> | null)?.warn),
      'Expected an object with warn()',
    )
    .default(() => console),
  logLevel: z.enum(LOG_LEVELS).optional(),
  deprecationWarnings: z.boolean().default(true),
  pacing: z.boolean().default(true),
  onRateLimit: z.custom<(wait: RateLimitWait) => void>(isFunction, 'Expected a function').optional(),
  rateLimitStore: z
    .custom<RateLimitStore>((value) => {
      const store = value as Partial<RateLimitStore> | null;
      return isFunction(store?.acquire) && isFunction(store?.release);
    }, 'rateLimitStore must have acquire() and release() methods, as a RateLimitStore does')
    .optional(),
});

const RequestOptionsSchema = z.strictObject({
  signal: z
    .custom<AbortSignal>((value) => value instanceof AbortSignal, 'Expected an AbortSignal')
    .optional(),
  timeout: Timeout.optional(),
  maxRetries: MaxRetries.optional(),
  headers: HeadersSchema.optional(),
});

/** The client's settings, validated, with defaults and environment variables applied. */
export interface ClientConfig {
  readonly apiKey: string;
  /** The service's base URL, ending in `/v1/`. */
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly maxRetryWait: number;
  readonly fetch: Fetch | undefined;
  readonly headers: HeaderEntries;
  /** Where log lines go, at the configured level, the key already kept out. */
  readonly log: Log;
  readonly deprecationWarnings: boolean;
  readonly pacing: boolean;
  readonly onRateLimit: ((wait: RateLimitWait) => void) | undefined;
  /** Shared pacing state; `undefined` for a fresh in-process store. */
  readonly rateLimitStore: RateLimitStore | undefined;
}

/** A call's options, validated, its headers as entries. */
export type CallOptions = z.output<typeof RequestOptionsSchema>;

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[name];
  return value === '' ? undefined : value;
}

function fail(message: string): never {
  throw new PetStoreError(`Invalid PetStoreClient options: ${message}`);
}

/** Checks the base URL and returns it with the trailing slash that URL resolution needs. */
function normalizeBaseUrl(value: string): string {
  const checked = checkBaseUrl(value);
  if ('problem' in checked) fail(`${checked.problem}.`);
  return `${checked.origin}${checked.path}/`;
}

function logLevelFromEnv(): LogLevel {
  const fromEnv = env('PETSTORE_LOG');
  if (fromEnv === undefined) return DEFAULT_LOG_LEVEL;
  const level = fromEnv.trim().toLowerCase();
  if (isLogLevel(level)) return level;
  fail(`PETSTORE_LOG must be one of ${LOG_LEVELS.join(', ')}, got "${fromEnv}".`);
}

/** Applies defaults and environment variables to the client's options, and validates every one. */
export function resolveClientOptions(options: ClientOptions): ClientConfig {
  const apiKey = options.apiKey ?? env('PETSTORE_API_KEY');
  if (typeof apiKey !== 'string' || apiKey.trim() === '') {
    fail('no API key. Pass { apiKey } or set the PETSTORE_API_KEY environment variable.');
  }
  if (!FIELD_VALUE.test(apiKey) || apiKey !== apiKey.trim()) {
    fail('the API key must be Latin-1 text without NUL, line breaks or surrounding spaces.');
  }
  const baseUrl = options.baseUrl ?? env('PETSTORE_BASE_URL');
  if (baseUrl === undefined) {
    fail('no base URL. Pass { baseUrl } or set the PETSTORE_BASE_URL environment variable.');
  }
  const parsed = ClientOptionsSchema.safeParse(options);
  if (!parsed.success) fail(`${describeIssues(parsed.error.issues)}.`);
  const { logger, logLevel, ...settings } = parsed.data;
  return {
    ...settings,
    apiKey,
    baseUrl: normalizeBaseUrl(baseUrl),
    fetch: settings.fetch,
    onRateLimit: settings.onRateLimit,
    rateLimitStore: settings.rateLimitStore,
    log: new Log(logger, logLevel ?? logLevelFromEnv(), apiKey),
  };
}

/** Checks a call's options, or throws a `RequestValidationError` naming the operation. */
export function resolveCallOptions(operation: string, options: unknown): CallOptions {
  return validate(operation, 'request options', RequestOptionsSchema, options ?? {});
}
