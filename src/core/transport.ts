/**
 * The request lifecycle: a call passes the rate-limit gate, ky sends each attempt, each attempt's
 * body is read in full (up to `maxResponseBytes`) and what it says about the rate limit reported,
 * every retry waits exactly what the retry policy decided and passes the gate again, and the call
 * ends with its decoded data or a `PetStoreError`. The call's time bound caps its waits and attempts; closing ends it.
 *
 * @module
 */
import ky, { isHTTPError, type KyInstance, type Options, TimeoutError } from 'ky';
import type { PetStoreError } from '../errors.js';
import { trackedDelay } from '../shared/pending-waits.js';
import { readRequestId } from '../shared/request-id.js';
import type { WithResponse } from './api-promise.js';
import { Call, type RequestSpec } from './call.js';
import { deprecationNotice, warnOnce } from './deprecation.js';
import {
  type AttemptTrace,
  type OperationTrace,
  observeAttempt,
  publishQueue,
  publishWait,
  type QueueCounts,
  traceAttempt,
} from './diagnostics/channels.js';
import type { HeaderEntries } from './headers.js';
import type { CallOptions, ClientConfig } from './options.js';
import { RequestGate } from './pacing/gate.js';
import { InProcessRateLimitStore } from './pacing/in-process-store.js';
import { latestReading, parseRateLimit, rateLimitOutcome } from './pacing/rate-limit.js';
import type { RateLimitOutcome, RateLimitScope, RateLimitStore } from './pacing/rate-limit-store.js';
import { attemptTimeout, honouredWait } from './queue/bound.js';
import { OpenCalls } from './queue/open-calls.js';
import { closedError, isRefusal } from './queue/refusals.js';
import { attemptLine, retryLine, waitLine } from './request/attempt-log.js';
import { hiddenHeadersWarning, hidesRateLimitHeaders } from './request/cors.js';
import { decodeData, tooLarge } from './request/decode.js';
import { toPetStoreError } from './request/failure.js';
import { readBody } from './request/read-body.js';
import { followRedirects, REDIRECT } from './request/redirect.js';
import { noticeReplay } from './request/replayed.js';
import { serviceClock } from './request/response-time.js';
import { decideRetry, requestedWait } from './request/retry.js';
import { retryArguments } from './request/retry-arguments.js';
import { RetryBudget } from './request/retry-budget.js';
import type { ClientQueue, RateLimit, RateLimitWait } from './types.js';

/**
 * How long past its attempt's timeout a request still counts as in flight for the rate-limit store,
 * should its process die before reporting the outcome.
 */
export const LEASE_MARGIN_MS = 1_000;

/** What an attempt that got no response tells the rate-limit store. */
const LOST: RateLimitOutcome = { unanswered: 'lost' };
const ABORTED: RateLimitOutcome = { unanswered: 'aborted' };

export class Transport {
  readonly #config: ClientConfig;
  readonly #gate: RequestGate<Call>;
  readonly #ky: KyInstance;
  readonly #calls = new OpenCalls();
  readonly #budget = new RetryBudget();
  readonly #store: RateLimitStore;
  readonly #scope: RateLimitScope;
  #rateLimit: RateLimit | null = null;
  readonly #serviceTime = serviceClock();
  /** Until a 2xx or a 429 tells whether CORS hides the rate-limit headers (then warned once). */
  #watchHiddenHeaders = true;

  constructor(config: ClientConfig) {
    this.#config = config;
    this.#store = config.rateLimitStore ?? new InProcessRateLimitStore();
    this.#scope = Object.freeze({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey.scopeName,
      logger: config.log,
    });
    this.#gate = new RequestGate({
      store: this.#store,
      scope: this.#scope,
      maxWait: honouredWait(config.maxRetryAfter),
      maxQueued: config.maxQueued,
      pacing: config.pacing,
      burst: config.pacingBurst,
      onWait: (wait, call) => this.#waits(wait, () => waitLine(wait), call),
      onRefusal: (error, operation) => this.#refused(error, operation),
      onChange: () => publishQueue(this),
    });
    // Everything that does not vary by call is set once here, so that a call hands ky only what it
    // changes. A key that is a function is asked for before each attempt (#attempt); `null` sends
    // none. ky sends one attempt per call of it (`retry: 0`): the attempts are counted in #send.
    const key = config.apiKey.fixed;
    this.#ky = ky.create({
      headers: Object.fromEntries([
        ...config.headers,
        ['accept', 'application/json'],
        ...(typeof key === 'string' ? [['authorization', `Bearer ${key}`]] : []),
      ]),
      // Each attempt's timeout is its own timer (#attempt).
      timeout: false,
      retry: 0,
      // An error status throws (ky's default): the retry policy and the error classes take it there.
    });
  }

  /** The latest rate-limit reading, or `null` before any response carried one. */
  get rateLimit(): RateLimit | null {
    return this.#rateLimit;
  }

  /** The calls waiting and in flight now. */
  get queue(): ClientQueue {
    return {
      waiting: this.#gate.waiting,
      inFlight: this.#calls.inFlight,
      oldestWaitMs: this.#gate.oldestWaitMs(Date.now()),
      closed: this.#calls.closed,
    };
  }

  /**
   * Refuses calls from now on, ends those that wait (and, with `abort`, those in flight), and
   * resolves once every call has settled and the store has every lease back.
   */
  async close(abort: boolean): Promise<void> {
    await this.#calls.close(abort, closedError());
    await this.#store.flush?.(this.#scope);
  }

  /** What the queue channel reports of the queue: publishQueue reads it only while someone listens. */
  queueCounts(): QueueCounts {
    return { baseUrl: this.#config.baseUrl, waiting: this.#gate.waiting, inFlight: this.#calls.inFlight };
  }

  /** One debug line, and the queue channel, for a call the client refused; returns its error. */
  #refused(error: PetStoreError, operation: string): PetStoreError {
    const { code } = error as PetStoreError & { code: string };
    this.#config.log.debug(() => `animal-store-sdk: ${operation} refused (${code}): ${error.message}`);
    publishQueue(this, operation, code);
    return error;
  }

  /**
   * Checks the call (`check` throws for arguments that fail, so the promise rejects with nothing
   * sent), sends it and resolves with its decoded body and response. `trace` is the call's context on
   * the diagnostics channels, when anyone listens.
   */
  async request<T>(
    check: (trace: OperationTrace | undefined) => [RequestSpec<T>, CallOptions],
    trace?: OperationTrace,
  ): Promise<WithResponse<T>> {
    const [spec, options] = check(trace);
    if (this.#calls.closed) throw this.#refused(closedError(), spec.operation);
    const call = new Call(spec, options, this.#config, trace);
    const { signal } = options;
    const forward = () => call.controller.abort(signal?.reason);
    if (signal?.aborted) forward();
    signal?.addEventListener('abort', forward);
    this.#calls.add(call);
    try {
      await this.#pass(call);
      const response = await this.#send(
        this.#config.baseUrl + call.relative,
        call,
        this.#kyOptions(call, options),
      );
      this.#budget.earn();
      const data = await decodeData(call, spec.schema, response);
      return {
        data,
        response,
        rateLimit: call.reading ?? null,
        requestId: call.redact(readRequestId(response.headers)),
      };
    } catch (error) {
      const failure = toPetStoreError(error, call);
      // A refusal has had its line.
      if (!isRefusal(failure)) {
        this.#config.log.debug(
          () => `animal-store-sdk: ${call.where} failed after ${call.attempts} attempt(s): ${failure.name}`,
        );
      }
      throw failure;
    } finally {
      while (call.leases.length > 0) this.#gate.settle(call.leases.pop() as string, {});
      signal?.removeEventListener('abort', forward);
      this.#calls.delete(call);
    }
  }

  /**
   * What ky is handed for this call's attempts: only what differs from the client's instance, since
   * ky merges every option it is given into its own on each attempt.
   */
  #kyOptions(call: Call, options: CallOptions): Options {
    const { spec } = call;
    const kyOptions: Options = {
      method: spec.method,
      // A key from a function is asked for first, so that what traces show of the attempt has it redacted.
      // Not an async function: a fixed key's attempt needs no frame of its own.
      fetch: (input, init) => {
        const request = input as Request; // ky hands fetch a Request
        const send = () =>
          traceAttempt(call, request, init, (attempt) => this.#attempt(call, request, init, attempt));
        return call.keys === undefined
          ? send()
          : this.#config.apiKey.next(call.keys).then((key) => {
              request.headers.set('authorization', `Bearer ${key}`);
              return send();
            });
      },
    };
    // ky copies its options once for each key it is given: only those the instance lacks are.
    if (spec.json !== undefined) kyOptions.json = spec.json;
    // Headers given as undefined would drop the client's own.
    if ((spec.headers ?? options.headers) !== undefined) {
      kyOptions.headers = callHeaders(spec.headers, options.headers);
    }
    return kyOptions;
  }

  /** Waits in the queue, within what is left of the call's bound and of its waits in all. */
  async #pass(call: Call): Promise<void> {
    const { spec, reportedUntil, controller } = call;
    const since = Date.now();
    const lease = await this.#gate.pass(
      spec.operation,
      call.timeout + LEASE_MARGIN_MS,
      // The latest it may start: its life's end, or its waits' allowance spent.
      Math.min(call.deadline, since + call.queueLeftMs),
      controller.signal,
      reportedUntil,
      call,
    );
    call.leases.push(lease);
    call.queueLeftMs -= Date.now() - since;
  }

  /**
   * Sends the call's attempts: ky sends each one, the retry policy decides after each failure, and
   * a retry first waits what the policy decided, then passes the gate (so the wait is not counted
   * against the attempt's timeout).
   */
  async #send(url: string, call: Call, options: Options): Promise<Response> {
    for (let retry = 1; ; retry++) {
      try {
        return await this.#ky(url, options);
      } catch (error) {
        if (retry > call.maxRetries || !(error instanceof Error) || !this.#shouldRetry(call, error, retry)) {
          throw error;
        }
        await trackedDelay(call.retryWaitMs ?? 0, call.controller.signal);
        // A retry refused by the queue ends the call with what its last attempt got.
        await this.#pass(call).catch((refusal: unknown) => {
          throw isRefusal(refusal) ? error : refusal;
        });
      }
    }
  }

  /** Asks the retry policy about a failed attempt, and reports the wait it decides. */
  #shouldRetry(call: Call, error: Error, retry: number): boolean {
    const decision = decideRetry({
      method: call.spec.method,
      idempotent: call.spec.idempotent,
      error,
      requested: call.requested,
      retry,
      maxRetryAfter: this.#config.maxRetryAfter,
      budget: this.#budget,
    });
    const line = () => retryLine(call.described, decision, retry);
    if (!decision.retry) {
      if (decision.budgetSpent) call.notRetried = decision.why;
      this.#config.log.info(line);
      return false;
    }
    const { waitMs, reason } = decision;
    // A closed client, or a wait the call's bound cannot hold, ends it with this attempt's error.
    if (this.#calls.closed || waitMs >= call.deadline - Date.now()) return false;
    this.#budget.spend();
    this.#waits({ operation: call.spec.operation, waitMs, reason }, line, call);
    // A 429's wait is every request's cooldown, held by the gate for this retry too: it is not
    // slept a second time, and the gate reports only what goes beyond it.
    const heldByGate = isHTTPError(error) && error.response.status === 429 && reason !== 'backoff';
    call.retryWaitMs = heldByGate ? 0 : waitMs;
    call.reportedUntil = heldByGate ? Date.now() + waitMs : 0;
    return true;
  }

  /** Logs a wait at `info`, tells `onWait` and the wait channel, before the wait starts. */
  #waits(wait: RateLimitWait, line: () => string, call: Call | undefined): void {
    this.#config.log.info(line);
    this.#config.onWait?.(wait);
    publishWait(call, wait);
  }

  /**
   * Sends one attempt (traced on the attempt channel while anyone listens) through the gate's
   * accounting and reads its whole body (up to `maxResponseBytes`), so that a body cut off mid-way
   * fails the attempt (and a read is retried) rather than the decoding afterwards.
   */
  async #attempt(
    call: Call,
    request: Request,
    init: RequestInit | undefined,
    attempt: AttemptTrace | undefined,
  ): Promise<Response> {
    // Any unused lease will do, so the last: `shift`, which moves the array's start, was nearly half
    // of the attempt's own time in a CPU profile.
    const lease = call.leases.pop();
    call.attempts++;
    const started = performance.now();
    let response: Response | undefined;
    let replayed: string | undefined;
    let failure: unknown;
    // The call's controller aborts the attempt's fetch, on the caller's signal, on closing and on the
    // attempt's timeout (then a new one serves what follows). ky's timeout would abort ky's own
    // controller, which fetch could follow only through one more controller and listener an attempt.
    const { controller } = call;
    // Not the reason's name: a caller's `AbortSignal.timeout()` aborts with a TimeoutError too.
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = !controller.signal.aborted;
        controller.abort(new TimeoutError(request));
      },
      attemptTimeout(call, call.timeout, Date.now()),
    );
    this.#calls.attempt(call, true);
    call.outcomeUnknown = true;
    try {
      // The global fetch is looked up per request, so a client created before a mock is installed
      // (msw's `server.listen()`, say) still goes through it.
      const fetch = this.#config.fetch ?? globalThis.fetch;
      // Redirects are followed by followRedirects alone, whatever the caller's fetchOptions say.
      const given: RequestInit = {
        ...init,
        ...call.fetchOptions,
        redirect: REDIRECT,
        signal: controller.signal,
      };
      const retry = call.attempts > 1;
      response = await (retry ? fetch(...retryArguments(request, given)) : fetch(request, given));
      // `error` (the browser build's) leaves no redirect to follow: fetch refuses each.
      if (REDIRECT === 'manual') {
        const hop = (next: Request) => fetch(next, { signal: controller.signal });
        response = await followRedirects(response, request, hop, call, this.#config.baseUrl);
      }
      call.outcomeUnknown = false;
      if (retry) {
        replayed = noticeReplay(call, response, this.#config.log);
      }
      call.previous = response;
      const limit = call.maxResponseBytes;
      // `null`: a status that never carries a body (204, 304, ...) comes with none at all;
      // `undefined`: a body past the limit, which an error status's retry decision does without.
      const text = response.body && (await readBody(response, limit));
      call.body = text ?? undefined;
      if (text === undefined && response.ok) throw tooLarge(call, response, limit);
      if (response.ok) return response;
      // ky reads an error's body for itself, so it gets a fresh copy of what was read here, with
      // the response's status, status text and headers.
      return new Response(call.body ?? null, response);
    } catch (error) {
      // Once the timer fired, what fetch or the body's read threw is that timeout.
      failure = timedOut ? controller.signal.reason : error;
      throw failure;
    } finally {
      clearTimeout(timer);
      this.#calls.attempt(call, false);
      if (timedOut) call.controller = new AbortController();
      this.#observe(call, response, lease, attempt, controller.signal.aborted && !timedOut);
      const duration = performance.now() - started;
      this.#config.log.debug(() =>
        attemptLine(call.described, call.attempts, duration, response, failure, call.redact, replayed),
      );
    }
  }

  /**
   * Takes in what a response says: the wait it asks for, the rate-limit reading, a deprecation; and
   * what the attempt got, for the diagnostics channels.
   */
  #observe(
    call: Call,
    response: Response | undefined,
    lease: string | undefined,
    attempt: AttemptTrace | undefined,
    aborted: boolean,
  ): void {
    const serviceNow = this.#serviceTime(response?.headers, Date.now());
    const reading = response ? parseRateLimit(response.headers) : null;
    call.reading = reading;
    call.requested = response?.ok === false ? requestedWait(response.headers, serviceNow) : undefined;
    observeAttempt(call, attempt, response, reading);
    if (lease !== undefined) {
      this.#gate.settle(
        lease,
        response
          ? rateLimitOutcome(response, reading, serviceNow, call.requested?.ms)
          : aborted
            ? ABORTED
            : LOST,
      );
    }
    if (!response) return;
    if (reading) this.#rateLimit = latestReading(this.#rateLimit, reading);
    if (this.#watchHiddenHeaders) {
      const hidden = hidesRateLimitHeaders(response, reading, call.requested);
      // The first 2xx or 429 tells, for the client's life: no check after it.
      this.#watchHiddenHeaders = hidden === undefined;
      if (hidden) this.#config.log.warn(hiddenHeadersWarning(call.described));
    }
    if (this.#config.deprecationWarnings) {
      warnOnce(this.#config.log, call.spec.operation, () =>
        deprecationNotice(call.spec.operation, response.headers, call.redact),
      );
    }
  }
}

/** A request's own headers, then the per-call ones, later names replacing earlier ones. */
function callHeaders(own: HeaderEntries | undefined, perCall: HeaderEntries | undefined): Headers {
  const headers = new Headers();
  for (const [name, value] of [...(own ?? []), ...(perCall ?? [])]) headers.set(name, value);
  return headers;
}
