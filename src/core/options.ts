/**
 * The client's options and the per-call options: their defaults, the environment variables behind
 * them, and the one validator both are checked by. What is wrong with the client's options is
 * reported when it is constructed; what is wrong with a call's, before anything is sent.
 *
 * @module
 */
import * as z from 'zod/mini';
import { PetStoreError } from '../errors.js';
import { type CheckedBaseUrl, checkBaseUrl } from '../shared/base-url.js';
import { SDK_MESSAGES } from '../shared/issue-message.js';
import { checkNames } from '../shared/option-names.js';
import { ApiKey, keyProblem } from './api-key.js';
import { guardKeyInBrowser } from './browser.js';
import { type HeaderEntries, headerEntries } from './headers.js';
import { DEFAULT_LOG_LEVEL, LOG_LEVELS, Log, type Logger, type LogLevel } from './log.js';
import type { RateLimitStore } from './pacing/rate-limit-store.js';
import type { Fetch, FetchOptions, HeadersInput, RateLimitWait } from './types.js';
import {
  addProblem,
  describeIssues,
  type Finding,
  type Issue,
  invalid,
  isRecord,
  objectFields,
  schemaFinding,
  wrongType,
} from './validate.js';

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
  /**
   * The API key, sent as a bearer token. Default: `process.env.PETSTORE_API_KEY`.
   *
   * - A string: the key. In a browser the client refuses one unless `dangerouslyAllowBrowser` is
   *   `true`, since anyone who opens the page can read it.
   * - A function returning the key, or a promise of it: called before each attempt, for a
   *   short-lived key (fetched from your backend, say). Every key it returns is kept out of errors
   *   and log lines, and all of them share one rate-limit budget and cooldown.
   * - `null`: no `Authorization` header at all, for a `baseUrl` of your own backend that adds the
   *   key itself.
   */
  apiKey?: string | (() => string | PromiseLike<string>) | null | undefined;
  /**
   * Lets a browser page (or a worker of one) construct the client with a string `apiKey`, which
   * anyone who opens the page can read. Node, Bun, Deno, Cloudflare Workers and the Edge runtime
   * never need it, nor does an `apiKey` that is a function or `null`. Default: `false`.
   */
  dangerouslyAllowBrowser?: boolean | undefined;
  /**
   * The service's base URL: an absolute http(s) URL ending in `/v1` (a trailing slash is fine).
   * Default: `process.env.PETSTORE_BASE_URL`.
   */
  baseUrl?: string | undefined;
  /**
   * Retries after the first attempt, 0 to 10. Default: 2. All calls of a client share a retry
   * budget besides: 10 retries, and one more for every 5 successful calls; once it is spent, a
   * failed call fails at once with its last error, its message saying so.
   */
  maxRetries?: number | undefined;
  /** Milliseconds allowed for each attempt. Default: 60,000. */
  timeout?: number | undefined;
  /**
   * Milliseconds allowed for each call's whole life: its waits in the queue, its attempts and the
   * waits between them; a call's own `callTimeout` replaces it. A call that cannot start in time
   * (the budget left, the window's reset and the calls ahead show it) is refused at once with a
   * `RefusedError` whose `code` is `client_deadline`, before it waits; one still waiting when its
   * time ends is refused then. Default: none beyond `maxQueueWait` for the waits.
   */
  callTimeout?: number | undefined;
  /**
   * The longest wait, in milliseconds, that the service may ask for and the client honour
   * automatically: a 429's `Retry-After`, the current window's reset, the day's quota. A longer one
   * fails the call at once: a `RefusedError` (`code` `client_rate_limited`) before it is sent, the
   * `RateLimitError` the service sent after it. Default: 60,000.
   */
  maxRetryAfter?: number | undefined;
  /**
   * The most milliseconds a call waits in the queue for budget, in all; a call that cannot start
   * within what is left is refused at once with a `RefusedError` whose `code` is
   * `client_deadline`. Default: 120,000: a call on a per-minute plan that finds its window spent
   * waits for the next one (a little over a minute away, as reset headers count whole seconds),
   * and for one more when the calls ahead of it spend that.
   */
  maxQueueWait?: number | undefined;
  /**
   * The most calls that may wait in the queue; one more is refused at once with a
   * `RefusedError` whose `code` is `client_queue_full`. Default: no cap (the time bounds
   * already keep the queue from growing under sustained demand).
   */
  maxQueued?: number | undefined;
  /**
   * The most bytes of a response's body the client reads, counted after decompression, 1 to
   * 268,435,456 (256 MiB); a call's own `maxResponseBytes` replaces it. A larger body is not read
   * past it: a success fails with a `ResponseTooLargeError`, an error status with its `APIError`,
   * `body` undefined (retried as that status is). Default: 10,485,760 (10 MiB).
   */
  maxResponseBytes?: number | undefined;
  /** The `fetch` to send requests with. Default: the global `fetch`, looked up per request. */
  fetch?: Fetch | undefined;
  /**
   * Options handed to `fetch` with every attempt of every call; a call's
   * own `fetchOptions` replace them name by name. Redirects are the client's to follow, under the
   * base URL only: `redirect: 'error'` follows none.
   */
  fetchOptions?: FetchOptions | undefined;
  /**
   * Headers sent with every request: an object, an array of `[name, value]` pairs or a `Headers`.
   * `Authorization`, `Accept`, `Content-Type` and the headers that belong to the connection are set
   * by the client and rejected here, as is any name or value `fetch` would refuse.
   */
  headers?: HeadersInput | undefined;
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
   * Of each rate-limit window's budget, the share (above 0, at most 1) the client may send at once
   * when calls are waiting; the rest goes out evenly over the time left in the window, so that a
   * busy client never sends a whole window's budget in one instant at its reset (nor does a fleet
   * sharing a `rateLimitStore`). Calls below the plan's rate are not held. `1` sends whatever the
   * window has left as soon as calls ask. Default: `0.25`.
   */
  pacingBurst?: number | undefined;
  /**
   * Told of every wait the client takes before sending, once, before it starts, with its reason:
   * retries (after `Retry-After`, the rate-limit reset, or backoff after a failure such as a 5xx), the
   * cooldown after a 429, and pacing.
   */
  onWait?: ((wait: RateLimitWait) => void) | undefined;
  /**
   * Where the pacing state lives: the latest rate-limit reading, the requests in flight and the
   * cooldown after a 429. Clients given the same store share one budget per base URL and API key:
   * {@link store!createInProcessRateLimitStore} within a process, `redisRateLimitStore` from
   * `animal-store-sdk/redis` across processes. Default: a fresh in-process store for this client.
   */
  rateLimitStore?: RateLimitStore | undefined;
}

/** `setTimeout` (and so ky) cannot wait longer than this. */
const MAX_TIMER_MS = 2_147_483_647;

/** What a check of one option found wrong with its value, or `undefined`. */
type Check = (value: unknown) => Finding | undefined;

const bySchema =
  (schema: z.ZodMiniType): Check =>
  (value) =>
    schemaFinding(schema, value);

const integer = (min: number, max: number) =>
  bySchema(z.int(SDK_MESSAGES).check(z.minimum(min), z.maximum(max)));

// A plain check: zod's boolean schema would be the one part of zod only this option uses.
const flag: Check = (value) => (typeof value === 'boolean' ? undefined : wrongType('boolean', value));

const share: Check = (value) =>
  typeof value === 'number' && value > 0 && value <= 1
    ? undefined
    : 'Expected a number above 0 and at most 1';

const callable: Check = (value) => (typeof value === 'function' ? undefined : 'Expected a function');

const withMethods =
  (...methods: string[]): Check =>
  (value) =>
    methods.every((method) => typeof (value as Record<string, unknown>)?.[method] === 'function')
      ? undefined
      : `Expected an object with ${methods.join('() and ')}()`;

/** What the client sets on every request itself, so `fetchOptions` may not. */
const OWN_FETCH_OPTIONS = ['body', 'headers', 'method', 'signal'];

const fetchOptions: Check = (value) =>
  isRecord(value) && !OWN_FETCH_OPTIONS.some((name) => value[name] !== undefined)
    ? undefined
    : `Expected fetch options without ${OWN_FETCH_OPTIONS.join(', ')}`;

const TIMEOUT = integer(1, MAX_TIMER_MS);
const WAIT = integer(0, MAX_TIMER_MS);
const MAX_RETRIES = integer(0, 10);
const MAX_RESPONSE_BYTES = integer(1, 2 ** 28);
const LOG_LEVEL = bySchema(z.enum(LOG_LEVELS, SDK_MESSAGES));

/** The client's options beyond the key, the base URL and the headers: each one's check, in order, and its default. */
const CLIENT_OPTIONS: Record<string, [Check, unknown?]> = {
  maxRetries: [MAX_RETRIES, 2],
  timeout: [TIMEOUT, 60_000],
  maxRetryAfter: [WAIT, 60_000],
  maxQueueWait: [WAIT, 120_000],
  callTimeout: [TIMEOUT],
  maxQueued: [integer(1, Infinity), Infinity],
  maxResponseBytes: [MAX_RESPONSE_BYTES, 10_485_760],
  deprecationWarnings: [flag, true],
  pacing: [flag, true],
  pacingBurst: [share, 0.25],
  dangerouslyAllowBrowser: [flag],
  fetch: [callable],
  fetchOptions: [fetchOptions],
  logger: [withMethods('warn')],
  onWait: [callable],
  rateLimitStore: [withMethods('acquire', 'release')],
  logLevel: [LOG_LEVEL],
};

/** The per-call options but `headers`, each checked when given; any other key is refused. */
const CALL_OPTIONS: Record<string, [Check]> = {
  signal: [(value) => (value instanceof AbortSignal ? undefined : 'Expected an AbortSignal')],
  timeout: [TIMEOUT],
  callTimeout: [TIMEOUT],
  maxRetries: [MAX_RETRIES],
  maxResponseBytes: [MAX_RESPONSE_BYTES],
  fetchOptions: [fetchOptions],
};

const CALL_OPTION_NAMES = [...Object.keys(CALL_OPTIONS), 'headers'];

/** Every name the client's options may have: the table's, and those resolved on their own. */
const CLIENT_OPTION_NAMES = ['apiKey', 'baseUrl', 'headers', ...Object.keys(CLIENT_OPTIONS)];

/** The client's settings, validated, with defaults and environment variables applied. */
export interface ClientConfig {
  readonly apiKey: ApiKey;
  /** Ending in `/v1/`. */
  readonly baseUrl: string;
  readonly maxRetries: number;
  readonly timeout: number;
  readonly maxRetryAfter: number;
  readonly maxQueueWait: number;
  readonly callTimeout: number | undefined;
  readonly maxQueued: number;
  readonly maxResponseBytes: number;
  readonly fetch: Fetch | undefined;
  readonly fetchOptions: FetchOptions | undefined;
  readonly headers: HeaderEntries;
  readonly log: Log;
  readonly deprecationWarnings: boolean;
  readonly pacing: boolean;
  readonly onWait: ((wait: RateLimitWait) => void) | undefined;
  readonly pacingBurst: number;
  /** `undefined` for a fresh in-process store. */
  readonly rateLimitStore: RateLimitStore | undefined;
}

/** A call's options, validated, its headers as entries. */
export interface CallOptions {
  readonly signal?: AbortSignal | undefined;
  readonly timeout?: number | undefined;
  readonly callTimeout?: number | undefined;
  readonly maxRetries?: number | undefined;
  readonly maxResponseBytes?: number | undefined;
  readonly headers?: HeaderEntries | undefined;
  readonly fetchOptions?: FetchOptions | undefined;
}

/** An environment variable where the runtime has them (a page has none); an empty one counts as unset. */
function env(name: string): string | undefined {
  return globalThis.process?.env?.[name] || undefined;
}

/** `message` is a sentence without its full stop. */
function fail(message: string): never {
  throw new PetStoreError(`Invalid PetStoreClient options: ${message}.`);
}

function resolveApiKey(options: ClientOptions): ApiKey {
  const given = options.apiKey;
  if (given === null || typeof given === 'function') return new ApiKey(given);
  const key =
    given ??
    env('PETSTORE_API_KEY') ??
    fail('no API key: pass { apiKey } (null for none) or set PETSTORE_API_KEY');
  const problem = keyProblem(key);
  if (problem !== undefined) fail(`the API key ${problem}`);
  guardKeyInBrowser(options.dangerouslyAllowBrowser);
  return new ApiKey(key);
}

/** Checks each field of `value` that `options` names, into `problems`; returns the fields, defaults in place of those not given. */
function checkFields(
  value: Record<string, unknown>,
  options: Record<string, [Check, unknown?]>,
  problems: Issue[],
): Record<string, unknown> {
  const checked: Record<string, unknown> = {};
  for (const [name, [check, fallback]] of Object.entries(options)) {
    const field = value[name];
    if (field !== undefined) addProblem(problems, [name], check(field), field);
    checked[name] = field ?? fallback;
  }
  return checked;
}

const checkHeaders = (headers: unknown, problems: Issue[]) =>
  headers === undefined ? undefined : headerEntries(headers, ['headers'], problems);

/** Applies defaults and environment variables to the client's options, and validates every one. */
export function resolveClientOptions(options: ClientOptions): ClientConfig {
  // Names first: a misspelled `baseUrl` must not let PETSTORE_BASE_URL stand in for it unseen.
  checkNames('PetStoreClient option', options, CLIENT_OPTION_NAMES);
  const apiKey = resolveApiKey(options);
  const url = checkBaseUrl(
    options.baseUrl ??
      env('PETSTORE_BASE_URL') ??
      fail('no base URL: pass { baseUrl } or set PETSTORE_BASE_URL'),
  );
  const problems: Issue[] = [];
  if ('problem' in url) addProblem(problems, [], url.problem);
  const { logger, logLevel, ...settings } = checkFields(
    options as Record<string, unknown>,
    CLIENT_OPTIONS,
    problems,
  );
  const headers = checkHeaders(options.headers, problems) ?? [];
  const level = logLevel ?? env('PETSTORE_LOG')?.trim().toLowerCase() ?? DEFAULT_LOG_LEVEL;
  if (logLevel === undefined) addProblem(problems, ['PETSTORE_LOG'], LOG_LEVEL(level), level);
  if (problems.length > 0) fail(describeIssues(problems));
  const { origin, path } = url as CheckedBaseUrl;
  return {
    ...(settings as Omit<ClientConfig, 'apiKey' | 'baseUrl' | 'headers' | 'log'>),
    headers,
    apiKey,
    // With the trailing slash that URL resolution needs.
    baseUrl: `${origin}${path}/`,
    log: new Log((logger as Logger | undefined) ?? console, level as LogLevel),
  };
}

/** Checks a call's options, or throws a `RequestValidationError` naming the operation. */
export function resolveCallOptions(operation: string, options: unknown): CallOptions {
  if (options === undefined || options === null) return {};
  const problems: Issue[] = [];
  const given = objectFields(options, CALL_OPTION_NAMES, problems, 'request option');
  const checked = {
    ...checkFields(given, CALL_OPTIONS, problems),
    headers: checkHeaders(given.headers, problems),
  };
  if (problems.length > 0) throw invalid(operation, 'request options', problems);
  return checked;
}
