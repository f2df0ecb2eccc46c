/**
 * The client's options: their defaults, the environment variables behind them, and their
 * validation. Everything wrong with them is reported when the client is constructed.
 *
 * @module
 */
import { PetStoreError } from '../errors.js';
import type { RateLimitWait } from './gate.js';
import { FIELD_VALUE, type HeaderEntries, HeadersSchema } from './headers.js';
import { DEFAULT_LOG_LEVEL, isLogLevel, LOG_LEVELS, Log, type Logger, type LogLevel } from './log.js';
import type { RateLimitStore } from './rate-limit-store.js';
import type { Fetch, TransportConfig } from './transport.js';

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
  /** Retries after the first attempt. Default: 2. */
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
   * (also every retry and every rate-limit wait) or `'debug'` (also every attempt, with its
   * status and duration). Default: `process.env.PETSTORE_LOG`, else `'warn'`.
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
  /** Told of every wait the client imposes on itself because of the rate limit. */
  onRateLimit?: ((wait: RateLimitWait) => void) | undefined;
  /**
   * Where the pacing state lives: the latest rate-limit reading, the requests in flight and the
   * cooldown after a 429. Clients given the same store share one budget per base URL and API key:
   * {@link createInProcessRateLimitStore} within a process, `redisRateLimitStore` from
   * `animal-store-sdk/redis` across processes. Default: a fresh in-process store for this client.
   */
  rateLimitStore?: RateLimitStore | undefined;
}

/** The defaults of the numeric options. */
const DEFAULTS = { maxRetries: 2, timeout: 60_000, maxRetryWait: 60_000 } as const;

/** ky (like `setTimeout`) cannot wait longer than this. */
export const MAX_TIMER_MS = 2_147_483_647;

function env(name: string): string | undefined {
  const value = typeof process === 'undefined' ? undefined : process.env?.[name];
  return value === '' ? undefined : value;
}

function fail(message: string): never {
  throw new PetStoreError(`Invalid PetStoreClient options: ${message}`);
}

function integerIn(name: string, value: number | undefined, fallback: number, min: number, max: number) {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < min || value > max) {
    fail(`${name} must be an integer from ${min} to ${max}, got ${String(value)}.`);
  }
  return value;
}

/** Checks the base URL and returns it with the trailing slash that URL resolution needs. */
function normalizeBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(`baseUrl must be an absolute http(s) URL ending in /v1, got "${value}".`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !path.endsWith('/v1')) {
    fail(`baseUrl must be an absolute http(s) URL ending in /v1, got "${value}".`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    fail('baseUrl must not carry a query, a fragment or credentials.');
  }
  return `${url.origin}${path}/`;
}

function clientHeaders(headers: unknown): HeaderEntries {
  if (headers === undefined) return [];
  const result = HeadersSchema.safeParse(headers);
  if (!result.success) fail(`headers: ${result.error.issues.map((issue) => issue.message).join('; ')}.`);
  return result.data;
}

function rateLimitStore(store: unknown): RateLimitStore | undefined {
  if (store === undefined) return undefined;
  const candidate = store as Partial<RateLimitStore> | null;
  if (typeof candidate?.acquire !== 'function' || typeof candidate.release !== 'function') {
    fail('rateLimitStore must have acquire() and release() methods, as a RateLimitStore does.');
  }
  return store as RateLimitStore;
}

function logLevel(option: unknown): LogLevel {
  if (option !== undefined) {
    if (isLogLevel(option)) return option;
    fail(`logLevel must be one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(option)}.`);
  }
  const fromEnv = env('PETSTORE_LOG');
  if (fromEnv === undefined) return DEFAULT_LOG_LEVEL;
  const level = fromEnv.trim().toLowerCase();
  if (isLogLevel(level)) return level;
  fail(`PETSTORE_LOG must be one of ${LOG_LEVELS.join(', ')}, got "${fromEnv}".`);
}

/** Applies defaults and environment variables, and validates every option. */
export function resolveOptions(options: ClientOptions): TransportConfig {
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
  return {
    apiKey,
    baseUrl: normalizeBaseUrl(baseUrl),
    maxRetries: integerIn('maxRetries', options.maxRetries, DEFAULTS.maxRetries, 0, 10),
    timeout: integerIn('timeout', options.timeout, DEFAULTS.timeout, 1, MAX_TIMER_MS),
    maxRetryWait: integerIn('maxRetryWait', options.maxRetryWait, DEFAULTS.maxRetryWait, 0, MAX_TIMER_MS),
    fetch: options.fetch,
    headers: clientHeaders(options.headers),
    log: new Log(options.logger ?? console, logLevel(options.logLevel), apiKey),
    deprecationWarnings: options.deprecationWarnings ?? true,
    pacing: options.pacing ?? true,
    onRateLimit: options.onRateLimit,
    rateLimitStore: rateLimitStore(options.rateLimitStore),
  };
}
