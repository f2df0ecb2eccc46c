/**
 * The fake Animal Store: its options, its state, and its one function from a web `Request` to a web
 * `Response`, served as a `fetch`, as an HTTP server and (through the adapter passed in) as msw
 * handlers.
 *
 * @module
 */
import type { Pet } from '../../schemas.js';
import type { Fetch } from '../../shared/fetch.js';
import { checkNames } from '../../shared/option-names.js';
import { trackedDelay, trackWait } from '../../shared/pending-waits.js';
import { REQUEST_ID_HEADER } from '../../shared/request-id.js';
import { type AfterOperationPlan, afterOperation } from '../disruptions/after-operation.js';
import { Disruptions } from '../disruptions/disruptions.js';
import { afterOperationPlan } from '../disruptions/faults.js';
import { startHttpServer } from '../http/start-http-server.js';
import type { HttpHandler } from '../msw/msw.js';
import { confine } from '../recording/confine.js';
import { type Har, type HarOptions, toHar } from '../recording/har.js';
import { redactor } from '../recording/redact.js';
import { Replay, type ReplayMismatchError } from '../recording/replay.js';
import { forward, upstreamOf } from '../recording/upstream.js';
import { authenticate, checkApiKeys, unauthorized } from '../rules/auth.js';
import {
  anonymousRateLimitState,
  type BanPolicy,
  DEFAULT_BAN_POLICY,
  type LimiterVerdict,
  limitsOf,
  type Plan,
  RateLimiter,
  type RateLimitState,
  type RateLimits,
  windowName,
} from '../rules/rate-limiter.js';
import { type BodyRead, DEFAULT_MAX_BODY_BYTES, payloadTooLarge, readBody } from '../rules/request-body.js';
import {
  ERROR_CODES,
  errorReply,
  rateLimitHeaders,
  retryAfterSeconds,
  toResponse,
} from '../rules/responses.js';
import { isModelled, noRoute, route } from '../rules/routes.js';
import { FakeStoreVerificationError, verificationProblems } from '../verify/verification.js';
import { DEFAULT_BASE_URL, parseBaseUrl, pathUnder } from './base-url.js';
import { PetRepository } from './pet-repository.js';
import { RequestIds } from './request-ids.js';
import {
  headersSize,
  MAX_RECORDED_RESPONSE_BYTES,
  parsedQuery,
  plainHeaders,
  type RecordedRequest,
  RequestLog,
  recordedBody,
  recordResponse,
  UNAUTHENTICATED_BODY_BYTES,
} from './request-log.js';
import {
  checkListenOptionNames,
  type FakeStoreControl,
  type ListenOptions,
  type Outcome,
  type RunningFakeServer,
  type StoreCore,
} from './store-core.js';

/**
 * The API key a fake store accepts when no `apiKeys` are given (on the Free plan).
 */
export const DEFAULT_API_KEY = 'test-api-key';

/**
 * The `apiKeys` of a fake store when none are given: `fakePetStoreConstants.defaultApiKey` on the Free plan.
 */
export const DEFAULT_API_KEYS: Readonly<Record<string, Plan>> = Object.freeze({ [DEFAULT_API_KEY]: 'free' });

/**
 * The options of {@link createFakePetStore}; every one is optional.
 *
 * @example
 * ```ts
 * import type { FakePetStoreOptions } from 'animal-store-sdk/testing';
 *
 * const options: FakePetStoreOptions = {
 *   baseUrl: 'https://staging.example.com/v1',
 *   apiKeys: { free: 'free', pro: 'pro', tiny: { perMinute: 2, perDay: 5 } },
 *   pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }],
 *   ban: { maxRequestsWhileLimited: 3, duration: 60_000 },
 * };
 * ```
 */
export interface FakePetStoreOptions {
  /**
   * The base URL served, ending in `/v1` like both real deployments (a trailing slash is fine).
   * Default `fakePetStoreConstants.defaultBaseUrl`.
   */
  readonly baseUrl?: string | URL;
  /** The accepted API keys and their plans. Default `fakePetStoreConstants.defaultApiKeys`. */
  readonly apiKeys?: Readonly<Record<string, Plan>>;
  /**
   * The key a request with no `Authorization` header is served with, as if a backend route of the
   * application had added it: the fake then stands in for that route too, so a page built with
   * `apiKey: null` runs against it. A wrong key is still a 401. The key is one of `apiKeys`, with its
   * plan, or else is added on the Free plan. Default none: a request without a key is a 401.
   *
   * @example
   * ```ts
   * import { createFakePetStore } from 'animal-store-sdk/testing';
   *
   * const store = createFakePetStore({ proxyKey: 'backend-key', apiKeys: { 'backend-key': 'pro' } });
   * ```
   */
  readonly proxyKey?: string;
  /** The animals the store starts with (and returns to on `reset()`). Default none. */
  readonly pets?: readonly Pet[];
  /**
   * The clock, in milliseconds since the epoch. The default reads `Date.now()` at each call, so it
   * follows fake timers.
   */
  readonly now?: () => number;
  /**
   * When a key sending requests while rate limited gets banned: fields left out keep the
   * `fakePetStoreConstants.defaultBanPolicy`; `false` never bans.
   */
  readonly ban?: Partial<BanPolicy> | false;
  /**
   * The largest request body read, in bytes. A larger one is answered 413 `payload_too_large` before
   * anything else, without reading it further; it is recorded without its body. Default
   * `fakePetStoreConstants.defaultMaxBodyBytes` (1 MiB).
   */
  readonly maxBodyBytes?: number;
  /**
   * How many requests `store.requests` keeps; beyond it the oldest are dropped and counted in
   * `store.droppedRequests`. Default `Infinity`: a test sees every request. The
   * `animal-store-fake-server` command keeps 10,000.
   */
  readonly maxRecordedRequests?: number;
  /**
   * How many bytes of requests `store.requests` keeps, counted as the characters of each request's
   * URL, headers and body and of its answer's headers and body; beyond it the oldest are dropped, as
   * with `maxRecordedRequests`. Default `Infinity`. The `animal-store-fake-server` command keeps
   * 64 MiB (`--max-log-bytes`).
   */
  readonly maxRecordedBytes?: number;
  /**
   * Called when the fake itself fails while answering a request (a bug, or an option it cannot use,
   * such as a circular fault body). The request is answered 500 `internal_error`, in every mode, and
   * recorded with the failure's message in `error`. The `animal-store-fake-server` command writes
   * these to stderr.
   */
  readonly onInternalError?: (error: unknown, request: RecordedRequest) => void;
  /**
   * Makes the `X-Request-Id` of every response reproducible: the same requests get the same ids in
   * every run (and again after `reset()`). An integer from 0 to 2^32 - 1. Default: a random seed, so
   * that two stores never share ids.
   */
  readonly requestIdSeed?: number;
  /**
   * Answer from a recording instead of the store's own rules: each request gets the answer recorded
   * for the same request (method, path under the base URL, query, body, `Content-Type`, whether an
   * `Authorization` header is present), in the order recorded; any other gets a 501 `not_recorded`
   * naming the nearest recorded request. Injected faults, chaos and `Prefer` still act first.
   * `reset()` makes every recorded answer available again. See docs/fake-server.md, "Record and replay".
   *
   * @example
   * ```ts
   * import { readFile } from 'node:fs/promises';
   * import { createFakePetStore, type Har } from 'animal-store-sdk/testing';
   *
   * const har = JSON.parse(await readFile('pets.har', 'utf8')) as Har;
   * const store = createFakePetStore({ replay: har });
   * ```
   */
  readonly replay?: Har;
  /**
   * In replay, whether a request must carry an `Authorization` header when the recorded one did, and
   * none when it did not. `false` leaves the header out of matching, for a recording that strips it
   * (Polly.js's, whose recordings are often persisted without it): a client with a key then matches.
   * Default `true`.
   *
   * @example
   * ```ts
   * import { createFakePetStore, type Har } from 'animal-store-sdk/testing';
   *
   * declare const pollyHar: Har; // a Polly.js recording, authorization stripped
   * const store = createFakePetStore({ replay: pollyHar, replayMatchesAuthorization: false });
   * ```
   */
  readonly replayMatchesAuthorization?: boolean;
  /**
   * Called, in replay, with each request no recorded request matches (also answered 501
   * `not_recorded`): to fail a test at the source, or to collect them.
   */
  readonly onReplayMismatch?: (error: ReplayMismatchError) => void;
  /**
   * Record mode: forward every request under the base URL to this deployment (a base URL ending in
   * `/v1`) and answer with what it answers, instead of the store's own rules; `store.toHAR()` then
   * holds what was seen. Injected faults, chaos and `Prefer` still act first. An upstream that cannot
   * be reached is a 502 `upstream_unreachable`.
   */
  readonly upstream?: string | URL;
  /**
   * The most bytes of each response body `store.requests` (and so `store.toHAR()`) keeps. Default
   * `fakePetStoreConstants.maxRecordedResponseBytes` (64 KiB); `Infinity` keeps every byte, as record mode wants.
   */
  readonly maxRecordedResponseBytes?: number;
  /**
   * Makes `store.verify()` also fail on every request to a path the fake does not model (answered 404
   * `not_modelled`), so that a test whose application reached an endpoint nobody answered fails.
   * Default `false`.
   */
  readonly strict?: boolean;
}

/** Every option's name: the type makes an option added to {@link FakePetStoreOptions} be listed here. */
const OPTION_NAMES = Object.keys({
  baseUrl: 0,
  apiKeys: 0,
  proxyKey: 0,
  pets: 0,
  now: 0,
  ban: 0,
  maxBodyBytes: 0,
  maxRecordedRequests: 0,
  maxRecordedBytes: 0,
  onInternalError: 0,
  requestIdSeed: 0,
  replay: 0,
  replayMatchesAuthorization: 0,
  onReplayMismatch: 0,
  upstream: 0,
  maxRecordedResponseBytes: 0,
  strict: 0,
} satisfies Record<keyof FakePetStoreOptions, 0>);

/**
 * A fake Animal Store. See {@link createFakePetStore}.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * const response = await store.fetch(`${store.baseUrl}/pets`, {
 *   headers: { Authorization: 'Bearer test-api-key' },
 * });
 * await response.json(); // []
 * ```
 */
export interface FakePetStore extends FakeStoreControl {
  /** The base URL served by `handlers` and `fetch`, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * msw request handlers for every request under the base URL: `setupServer(...store.handlers)` or
   * `setupWorker(...store.handlers)`. Requests outside it are left to msw's unhandled-request policy.
   * msw (2 or 3) is loaded the first time this is read, and only then; in the build for browsers,
   * which cannot load a module on demand, with the entry where msw is installed. Without msw, they
   * are typed `unknown`.
   *
   * @throws Error when msw cannot be loaded (not installed, say); TypeError in the build for
   * Cloudflare Workers, which has no msw.
   */
  readonly handlers: readonly HttpHandler[];
  /**
   * A drop-in `fetch` answered by the store. A URL outside the base URL is rejected with a `TypeError`
   * "fetch failed", as an unreachable host would be.
   */
  readonly fetch: Fetch;
  /**
   * Starts a real HTTP server for the store (Node, Bun and Deno) serving the base URL's path on any
   * host name, with CORS for browsers. Every server shares the store's state. In the browser build
   * (the `browser` export condition) it rejects with a `TypeError`: a page cannot listen. An option
   * of an unknown name rejects with a `TypeError` too, before any server starts.
   */
  listen(options?: ListenOptions): Promise<RunningFakeServer>;
  /** How many requests were dropped from `requests` to stay within `maxRecordedRequests` since the last `reset()`. */
  readonly droppedRequests: number;
  /**
   * The request log as a HAR 1.2 archive: each request and its answer, bodies included (response
   * bodies up to `maxRecordedResponseBytes`). Every API key the store knows, and every bearer token a
   * request carried, is redacted wherever it appears, and `Authorization` values keep only their scheme.
   *
   * @example
   * ```ts
   * import { writeFile } from 'node:fs/promises';
   * import { createFakePetStore } from 'animal-store-sdk/testing';
   *
   * const store = createFakePetStore();
   * await store.fetch(`${store.baseUrl}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
   * await writeFile('pets.har', JSON.stringify(store.toHAR(), null, 2));
   * ```
   */
  toHAR(options?: HarOptions): Har;
}

/** The most `advanceClock` moves the clock in one call: a year, so dates stay within what `Date` holds. */
const MAX_CLOCK_STEP_MS = 366 * 24 * 60 * 60 * 1000;

/**
 * Builds a fake store. The msw adapter is passed in, so that code that never uses msw (the
 * `animal-store-fake-server` command) does not load it; `createFakePetStore` passes the real one,
 * which runs the first time `handlers` is read.
 *
 * @throws TypeError or RangeError when an option is invalid.
 */
export function buildFakePetStore(
  options: FakePetStoreOptions,
  mswHandlers: (core: StoreCore) => readonly HttpHandler[],
): FakePetStore {
  const { store } = createStore(options, mswHandlers);
  return store;
}

/** The store and its core, the core also serving as what a session is built from. */
function createStore(
  options: FakePetStoreOptions,
  mswHandlers: (core: StoreCore) => readonly HttpHandler[],
): { store: FakePetStore; core: StoreCore } {
  checkNames('createFakePetStore option', options, OPTION_NAMES);
  const base = parseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
  const apiKeys = checkApiKeys(options.apiKeys ?? DEFAULT_API_KEYS, options.proxyKey);
  const authenticated = (headers: Headers) => authenticate(headers, apiKeys, options.proxyKey);
  const baseNow = options.now ?? (() => Date.now());
  let clockOffsetMs = 0;
  const clock = () => baseNow() + clockOffsetMs;
  const pets = new PetRepository(options.pets ?? []);
  const limiter = new RateLimiter(banPolicy(options.ban));
  const disruptions = new Disruptions();
  const maxBodyBytes = bodyLimit(options.maxBodyBytes);
  const log = new RequestLog(
    options.maxRecordedRequests ?? Number.POSITIVE_INFINITY,
    options.maxRecordedBytes ?? Number.POSITIVE_INFINITY,
  );
  const requestIds = new RequestIds(options.requestIdSeed);
  const replay =
    options.replay === undefined
      ? undefined
      : new Replay(options.replay, { authorization: options.replayMatchesAuthorization });
  const upstream = options.upstream === undefined ? undefined : upstreamOf(options.upstream);
  const maxResponseBytes = responseBodyLimit(options.maxRecordedResponseBytes);
  const secrets = [...Object.keys(apiKeys), ...(options.proxyKey === undefined ? [] : [options.proxyKey])];
  // The wait a 429's Retry-After asks of a client, listed for pendingWaits() until the next request.
  let retryAfterWait: (() => void) | undefined;

  const respond = async (request: Request, baseHref: string, oversized = false): Promise<Outcome> => {
    retryAfterWait?.();
    retryAfterWait = undefined;
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const path = pathUnder(url, base.path);
    const requestId = requestIds.next();
    if (path === undefined) return identified(reply(toResponse(noRoute(method, url.pathname))), requestId);
    // Only the start of what a request without a valid key sent is kept: any page can send such requests.
    const unauthenticated =
      replay === undefined && upstream === undefined && !authenticated(request.headers).ok;
    const read: BodyRead = oversized
      ? { tooLarge: true }
      : await readBody(request, maxBodyBytes, unauthenticated ? UNAUTHENTICATED_BODY_BYTES : undefined);
    const entry: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] } = {
      method,
      url: request.url,
      path,
      query: parsedQuery(url),
      headers: plainHeaders(request.headers),
      body: read.tooLarge ? undefined : read.cut ? read.text : recordedBody(read.text),
      receivedAt: clock(),
      requestId,
    };
    if (!isModelled(path)) entry.unmodelled = true;
    if (!read.tooLarge && read.cut) entry.bodyTruncated = true;
    log.push(entry, entry.url.length + headersSize(entry.headers) + (read.tooLarge ? 0 : read.text.length));
    const plan: AnswerPlan = {};
    let outcome: Outcome;
    try {
      outcome = await answer(request, entry, read, baseHref, plan);
    } catch (error) {
      // A wait cut short by the client's abort is the client leaving, not the fake failing.
      if (request.signal.aborted) throw error;
      entry.error = error instanceof Error ? error.message : String(error);
      outcome = reply(internalError(entry.error));
      entry.status = 500;
      options.onInternalError?.(error, structuredClone(entry));
    }
    identified(outcome, requestId);
    if (outcome.kind !== 'response') return outcome;
    entry.status = outcome.response.status;
    retryAfterWait = awaitedRetry(outcome.response, entry);
    // An injected fault may send an id of its own: the log keeps the one the response carried.
    entry.requestId = outcome.response.headers.get(REQUEST_ID_HEADER) ?? '';
    entry.response = await recordResponse(outcome.response, clock(), maxResponseBytes);
    log.grow(entry, headersSize(entry.response.headers) + entry.response.body.length);
    // Logged as recorded, so a recording's headers survive; served confined.
    if (plan.recorded === true) confine(outcome.response);
    if (plan.after === undefined) return outcome;
    entry.afterOperation = plan.after.fault;
    // No status reaches the client of a lost or stalled response.
    if (plan.after.fault === 'lost-response' || plan.after.fault === 'stalled-response') delete entry.status;
    return afterOperation(plan.after, outcome.response, request.signal);
  };

  const answer = async (
    request: Request,
    entry: { -readonly [K in keyof RecordedRequest]: RecordedRequest[K] },
    read: BodyRead,
    baseHref: string,
    plan: AnswerPlan,
  ): Promise<Outcome> => {
    if (read.tooLarge) return reply(toResponse(payloadTooLarge(maxBodyBytes)));

    const disruption = disruptions.decide(entry, request.headers, () => ({
      state: currentState(request.headers),
      now: clock(),
    }));
    if (disruption.kind === 'refuse') return reply(toResponse(disruption.reply));
    if (disruption.chaos !== undefined) entry.chaos = disruption.chaos;
    for (const effect of disruption.effects) {
      if (effect.after !== undefined) plan.after = effect.after;
      if (effect.delayMs > 0) {
        await trackedDelay(effect.delayMs, request.signal, `the fake, holding ${entry.method} ${entry.path}`);
      }
      if (effect.result.kind === 'network-error') return { kind: 'network-error' };
      if (effect.result.kind === 'response') {
        return reply(effect.result.response(rateLimitHeaders(currentState(request.headers))));
      }
    }

    if (upstream !== undefined) {
      const forwarded = await forward(upstream, request, entry.path, read.text);
      plan.recorded = true;
      return reply(forwarded instanceof Response ? forwarded : toResponse(forwarded));
    }
    if (replay !== undefined) {
      const replayed = replay.answer(entry, read.text);
      if (replayed.kind === 'network-error') return replayed;
      if (replayed.kind === 'response') {
        plan.recorded = true;
        // A recorded answer that met a fault after the operation meets it again.
        if (replayed.afterOperation !== undefined) plan.after = afterOperationPlan(replayed.afterOperation);
        return reply(replayed.response);
      }
      entry.error = replayed.error.message;
      options.onReplayMismatch?.(replayed.error);
      return reply(toResponse(replayed.reply));
    }

    const auth = authenticated(request.headers);
    if (!auth.ok) return reply(unauthorized(auth, clock()));

    const now = clock();
    const limits = limitsOf(auth.plan);
    const decision = limiter.consume(auth.key, limits, now);
    if (decision.outcome !== 'allowed') return reply(tooManyRequests(decision, limits, now));

    const operationReply = route(pets, {
      method: entry.method,
      path: entry.path,
      url: new URL(request.url),
      baseHref,
      headers: request.headers,
      bodyText: read.text,
      bodyUtf8: read.utf8,
    });
    return reply(toResponse(operationReply, rateLimitHeaders(decision.state)));
  };

  /** The rate-limit state the request's key would see now, without counting a request. */
  const currentState = (headers: Headers): RateLimitState => {
    const auth = authenticated(headers);
    return auth.ok ? limiter.peek(auth.key, limitsOf(auth.plan), clock()) : anonymousRateLimitState(clock());
  };

  const control: FakeStoreControl = {
    get pets() {
      return pets.all();
    },
    get requests() {
      return structuredClone(log.entries());
    },
    setPets(list) {
      pets.replace(list);
    },
    injectFault(fault) {
      disruptions.injectFault(fault);
    },
    clearFaults() {
      disruptions.clear();
    },
    advanceClock(ms) {
      if (!(Number.isSafeInteger(ms) && ms >= 0 && ms <= MAX_CLOCK_STEP_MS)) {
        throw new RangeError(
          `advanceClock: give whole milliseconds from 0 to ${MAX_CLOCK_STEP_MS} (a year), got ${String(ms)}`,
        );
      }
      clockOffsetMs += ms;
    },
    injectChaos(chaosOptions) {
      disruptions.injectChaos(chaosOptions);
    },
    clearChaos() {
      disruptions.clearChaos();
    },
    verify() {
      const problems = verificationProblems(
        disruptions.pendingFaults(),
        log.entries(),
        options.strict === true,
      );
      const redact = redactor(secrets);
      if (problems.length > 0) throw new FakeStoreVerificationError(problems.map(redact));
    },
    reset() {
      retryAfterWait?.();
      retryAfterWait = undefined;
      pets.reset();
      limiter.reset();
      disruptions.clear();
      log.clear();
      requestIds.reset();
      replay?.reset();
      clockOffsetMs = 0;
    },
  };

  const core: StoreCore = {
    base,
    now: clock,
    baseNow,
    maxBodyBytes,
    maxRecordedBytes: options.maxRecordedBytes ?? Number.POSITIVE_INFINITY,
    respond,
    control,
    har: (harOptions) => toHar(log.entries(), secrets, harOptions),
    spawn(basePath, limits) {
      const sessionOptions = { ...options, baseUrl: `${base.origin}${basePath}`, ...limits };
      return createStore(sessionOptions, () => []).core;
    },
  };

  const storeFetch: Fetch = async (input, init) => {
    const request = new Request(input, init);
    if (request.signal.aborted) throw request.signal.reason;
    const url = new URL(request.url);
    if (url.origin !== base.origin || pathUnder(url, base.path) === undefined) {
      throw new TypeError('fetch failed', {
        cause: new Error(
          `${request.method} ${request.url} is not under the fake store's base URL ${base.href}`,
        ),
      });
    }
    const outcome = await core.respond(request, base.href);
    if (outcome.kind === 'network-error') {
      throw new TypeError('fetch failed', {
        cause: new Error('The connection was closed without a response'),
      });
    }
    return outcome.response;
  };

  let handlers: readonly HttpHandler[] | undefined;
  // Getters do not survive a spread, so the store's own are written out.
  const store: FakePetStore = {
    baseUrl: base.href,
    get handlers() {
      handlers ??= mswHandlers(core);
      return handlers;
    },
    fetch: storeFetch,
    async listen(listenOptions = {}) {
      checkListenOptionNames(listenOptions);
      return startHttpServer(core, listenOptions);
    },
    get pets() {
      return control.pets;
    },
    get requests() {
      return control.requests;
    },
    get droppedRequests() {
      return log.dropped;
    },
    toHAR: (harOptions) => core.har(harOptions),
    verify: control.verify,
    setPets: control.setPets,
    injectFault: control.injectFault,
    clearFaults: control.clearFaults,
    advanceClock: control.advanceClock,
    injectChaos: control.injectChaos,
    clearChaos: control.clearChaos,
    reset: control.reset,
  };
  return { store, core };
}

/** What the answer met on its way: a fault after the operation, an answer from a recording or an upstream. */
interface AnswerPlan {
  after?: AfterOperationPlan;
  recorded?: true;
}

/** A 429's `Retry-After` in whole seconds, listed as the wait it asks of the client. */
function awaitedRetry(response: Response, entry: RecordedRequest): (() => void) | undefined {
  const seconds = response.headers.get('retry-after');
  if (response.status !== 429 || seconds === null || !/^\d+$/.test(seconds)) return undefined;
  return trackWait(
    Number(seconds) * 1000,
    `a client, waiting out the Retry-After: ${seconds} the fake sent to ${entry.method} ${entry.path}`,
  );
}

function reply(response: Response): Outcome {
  return { kind: 'response', response };
}

/** Names a response by its request's id, unless an injected fault already named it. */
function identified(outcome: Outcome, requestId: string): Outcome {
  if (outcome.kind === 'response' && !outcome.response.headers.has(REQUEST_ID_HEADER)) {
    outcome.response.headers.set(REQUEST_ID_HEADER, requestId);
  }
  return outcome;
}

/** The 500 for a failure inside the fake: the Error shape, never a dropped connection. */
function internalError(message: string): Response {
  return toResponse(
    errorReply(500, ERROR_CODES.internalError, `The fake Animal Store failed while answering: ${message}`),
  );
}

function tooManyRequests(
  decision: Exclude<LimiterVerdict, { outcome: 'allowed' }>,
  limits: RateLimits,
  now: number,
): Response {
  const seconds = retryAfterSeconds(decision.retryAt, now);
  const error =
    decision.outcome === 'banned'
      ? errorReply(
          429,
          ERROR_CODES.apiKeyBanned,
          `This API key is temporarily banned for sending requests while rate limited; retry in ${seconds} s`,
        )
      : errorReply(
          429,
          ERROR_CODES.rateLimited,
          `Rate limit of ${decision.state.limit} requests per ${decision.window === 'minute' ? windowName(limits) : 'day'} exceeded; retry in ${seconds} s`,
        );
  return toResponse(error, rateLimitHeaders(decision.state), { 'Retry-After': String(seconds) });
}

function responseBodyLimit(value: number | undefined): number {
  if (value === undefined) return MAX_RECORDED_RESPONSE_BYTES;
  if (!(value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 0))) {
    throw new RangeError(
      `maxRecordedResponseBytes must be an integer >= 0 or Infinity, got ${String(value)}`,
    );
  }
  return value;
}

function bodyLimit(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_BODY_BYTES;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`maxBodyBytes must be a non-negative integer, got ${String(value)}`);
  }
  return value;
}

function banPolicy(ban: Partial<BanPolicy> | false | undefined): BanPolicy | false {
  if (ban === false) return false;
  const policy = { ...DEFAULT_BAN_POLICY, ...ban };
  if (!Number.isInteger(policy.maxRequestsWhileLimited) || policy.maxRequestsWhileLimited < 0) {
    throw new RangeError(
      `ban.maxRequestsWhileLimited must be an integer >= 0, got ${String(policy.maxRequestsWhileLimited)}`,
    );
  }
  if (!Number.isFinite(policy.duration) || policy.duration <= 0) {
    throw new RangeError(
      `ban.duration must be a positive number of milliseconds, got ${String(policy.duration)}`,
    );
  }
  return policy;
}
