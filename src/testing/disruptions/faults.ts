/**
 * Injected faults: failures of the infrastructure in front of the fake Animal Store (a load balancer's
 * 503, a gateway's 429, a dropped connection, a slow network) that a test switches on for some requests.
 *
 * @module
 */
import { NULL_BODY_STATUSES } from '../../shared/http-status.js';
import type { RateLimitState } from '../rules/rate-limiter.js';
import {
  type AfterOperationFault,
  type AfterOperationPlan,
  DEFAULT_DRIP_MS,
  isAfterOperationFault,
} from './after-operation.js';
import { DELAY_RANGE, isDelayInRange, MAX_DELAY_MS } from './delay-range.js';
import { checkMatch, type FaultMatch, matchesRequest } from './fault-match.js';

// FaultOptions carries a FaultMatch: the two are exported together.
export type { FaultMatch } from './fault-match.js';

import {
  errorReply,
  type JsonValue,
  mergeHeaders,
  rateLimitHeaders,
  retryAfterSeconds,
} from '../rules/responses.js';
import type { RecordedRequest } from '../store/request-log.js';

/**
 * A fault to inject with `store.injectFault`. Give `status` (a response), `networkError` (no response),
 * `afterOperation` (the operation runs, then its answer is lost, stalled, cut off or dripped) or only
 * `delay` (the normal response, late).
 *
 * @example
 * ```ts
 * import type { FaultOptions } from 'animal-store-sdk/testing';
 *
 * const outage: FaultOptions = { status: 503, times: 2, match: { method: 'GET', path: '/pets' } };
 * const throttled: FaultOptions = { status: 429, headers: { 'Retry-After': '30' } };
 * const dropped: FaultOptions = { networkError: true };
 * const slow: FaultOptions = { delay: 5_000 };
 * const createdButLost: FaultOptions = { afterOperation: 'lost-response', match: { method: 'POST' } };
 * const dripping: FaultOptions = { afterOperation: 'dripping-body', dripInterval: 200 };
 * const html: FaultOptions = {
 *   status: 502,
 *   headers: { 'Content-Type': 'text/html' },
 *   body: '<html><body>Bad Gateway</body></html>',
 * };
 * ```
 */
export interface FaultOptions {
  /** The status to answer with, 200 to 599. */
  readonly status?: number;
  /**
   * Headers of the response; they replace the fake's own (`Content-Type`, `X-RateLimit-*`) of the same
   * name.
   */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * The response body: a string is sent as it is (`text/plain` unless `headers` set a `Content-Type`),
   * anything else as JSON. Without it, the body is an Error `{ code, message, status }` whose code
   * names the status (`service_unavailable` for 503, `rate_limited` for 429, and so on).
   */
  readonly body?: JsonValue;
  /**
   * Wait this long (setTimeout, so fake timers control it) before answering; the request's signal
   * aborts the wait. Whole milliseconds from 0 to `MAX_DELAY_MS` (5 minutes); else a RangeError.
   */
  readonly delay?: number;
  /**
   * Answer with no response at all: msw's `HttpResponse.error()`, a rejected `store.fetch` (a `TypeError`
   * "fetch failed", like undici's) and a destroyed socket from the HTTP server.
   */
  readonly networkError?: boolean;
  /**
   * Let the operation run (a create is applied), then spoil its answer: see {@link AfterOperationFault}.
   * Over HTTP each is what the wire shows; in process (`store.fetch`, msw) the closest a `Response`
   * allows (docs/fake-server.md says where they differ).
   */
  readonly afterOperation?: AfterOperationFault;
  /** For `afterOperation: 'dripping-body'`: milliseconds between two bytes. Default `fakePetStoreConstants.defaultDripMs`. */
  readonly dripInterval?: number;
  /** How many matching requests the fault applies to: a positive integer or `Infinity`. Default 1. */
  readonly times?: number;
  /** Which requests it applies to; default every request. */
  readonly match?: FaultMatch;
}

/**
 * What an injected fault does to one request.
 */
export interface FaultEffect {
  /** How long to wait first. */
  readonly delayMs: number;
  /** Then: answer with a response, fail the connection, or go on with the normal handling. */
  readonly result:
    | { readonly kind: 'response'; readonly response: (extraHeaders: Record<string, string>) => Response }
    | { readonly kind: 'network-error' }
    | { readonly kind: 'continue' };
  /** What spoils the answer once the operation ran, when anything does. */
  readonly after?: AfterOperationPlan;
}

interface ActiveFault {
  readonly options: FaultOptions;
  remaining: number;
  /** How many requests it answered. */
  fired: number;
  /** How many requests matched it so far, for `match.nth`. */
  matched: number;
}

const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  408: 'request_timeout',
  409: 'conflict',
  429: 'rate_limited',
  500: 'internal_error',
  502: 'bad_gateway',
  503: 'service_unavailable',
  504: 'gateway_timeout',
};

/**
 * The faults injected into one store, applied in the order they were injected: a request takes the
 * first fault that matches it and has uses left.
 */
export class FaultQueue {
  #faults: ActiveFault[] = [];

  /**
   * Adds a fault after checking it.
   *
   * @throws TypeError or RangeError when the options contradict each other or are out of range.
   */
  add(options: FaultOptions): void {
    checkFault(options);
    this.#faults.push({ options, remaining: options.times ?? 1, matched: 0, fired: 0 });
  }

  /**
   * Uses up one application of the first fault matching the request, and says what it does. Every
   * fault the request matches counts it towards its `match.nth`, whether it applies or not.
   */
  take(request: RecordedRequest): FaultEffect | undefined {
    let chosen: ActiveFault | undefined;
    for (const fault of this.#faults) {
      if (!matchesRequest(fault.options.match, request)) continue;
      fault.matched += 1;
      if (chosen === undefined && fault.matched >= (fault.options.match?.nth ?? 1)) chosen = fault;
    }
    if (chosen === undefined) return undefined;
    chosen.remaining -= 1;
    chosen.fired += 1;
    if (chosen.remaining <= 0) this.#faults = this.#faults.filter((candidate) => candidate !== chosen);
    return effectOf(chosen.options);
  }

  /**
   * Removes every fault.
   */
  clear(): void {
    this.#faults = [];
  }

  /** The faults not used up, in the order they were injected, with how often each fired. */
  pending(): readonly PendingFault[] {
    return this.#faults.map(({ options, fired, matched }) => ({ options, fired, matched }));
  }
}

/** A fault not used up: what was injected, and how many requests it answered so far. */
export interface PendingFault {
  readonly options: FaultOptions;
  readonly fired: number;
  /** How many requests matched it (for `match.nth`), whether it answered them or not. */
  readonly matched: number;
}

function checkFault(options: FaultOptions): void {
  const { status, networkError, delay, times, body, headers, afterOperation, dripInterval } = options;
  if (status !== undefined && (!Number.isInteger(status) || status < 200 || status > 599)) {
    throw new RangeError(`injectFault: status must be an integer from 200 to 599, got ${status}`);
  }
  if (networkError === true && (status !== undefined || body !== undefined || headers !== undefined)) {
    throw new TypeError('injectFault: a networkError has no response, so no status, headers or body');
  }
  if (status === undefined && networkError !== true && (body !== undefined || headers !== undefined)) {
    throw new TypeError('injectFault: headers and body need a status');
  }
  if (delay !== undefined && !isDelayInRange(delay)) {
    throw new RangeError(`injectFault: delay must be ${DELAY_RANGE}, got ${String(delay)}`);
  }
  if (afterOperation !== undefined) {
    if (!isAfterOperationFault(afterOperation)) {
      throw new TypeError(
        `injectFault: afterOperation must be one of lost-response, stalled-response, cut-body, dripping-body, stalled-body, got ${String(afterOperation)}`,
      );
    }
    if (status !== undefined || networkError === true || body !== undefined || headers !== undefined) {
      throw new TypeError(
        "injectFault: afterOperation spoils the operation's own answer, so no status, networkError, headers or body",
      );
    }
  }
  if (dripInterval !== undefined) {
    if (afterOperation !== 'dripping-body') {
      throw new TypeError("injectFault: dripInterval goes with afterOperation: 'dripping-body'");
    }
    if (!(Number.isSafeInteger(dripInterval) && dripInterval >= 1 && dripInterval <= MAX_DELAY_MS)) {
      throw new RangeError(
        `injectFault: dripInterval must be whole milliseconds from 1 to ${MAX_DELAY_MS}, got ${String(dripInterval)}`,
      );
    }
  }
  if (status === undefined && networkError !== true && delay === undefined && afterOperation === undefined) {
    throw new TypeError('injectFault: give a status, networkError: true, afterOperation or delay');
  }
  if (
    times !== undefined &&
    !(times === Number.POSITIVE_INFINITY || (Number.isInteger(times) && times >= 1))
  ) {
    throw new RangeError(`injectFault: times must be a positive integer or Infinity, got ${times}`);
  }
  checkMatch(options.match, 'injectFault');
}

/**
 * The fault a bare status stands for, when a request asks for one (`Prefer: code=503`) or chaos picks
 * it: the Error body and the key's rate-limit headers; a 429 says, as a gateway would, to retry in a
 * second (`Retry-After: 1`, and `X-RateLimit-Remaining: 0` until then).
 */
export function statusFault(status: number, state: RateLimitState, now: number): FaultOptions {
  if (status !== 429) return { status };
  const resetAt = now + 1_000;
  return {
    status,
    headers: {
      ...rateLimitHeaders({ limit: state.limit, remaining: 0, resetAt }),
      'Retry-After': String(retryAfterSeconds(resetAt, now)),
    },
  };
}

/** How a fault after the operation acts: a stall or a drip lasts at most `fakePetStoreConstants.maxDelayMs`. */
export function afterOperationPlan(
  fault: AfterOperationFault,
  dripMs: number = DEFAULT_DRIP_MS,
): AfterOperationPlan {
  return { fault, dripMs, maxMs: MAX_DELAY_MS };
}

/** What a fault does to a request. */
export function effectOf(options: FaultOptions): FaultEffect {
  const delayMs = options.delay ?? 0;
  if (options.afterOperation !== undefined) {
    const after = afterOperationPlan(options.afterOperation, options.dripInterval);
    return { delayMs, result: { kind: 'continue' }, after };
  }
  if (options.networkError === true) return { delayMs, result: { kind: 'network-error' } };
  const { status } = options;
  if (status === undefined) return { delayMs, result: { kind: 'continue' } };
  return {
    delayMs,
    result: { kind: 'response', response: (extra) => faultResponse(status, options, extra) },
  };
}

function faultResponse(
  status: number,
  options: FaultOptions,
  extraHeaders: Record<string, string>,
): Response {
  const { body } = options;
  const [text, contentType] =
    body === undefined
      ? [
          JSON.stringify(
            errorReply(status, CODE_BY_STATUS[status] ?? `http_${status}`, `Injected fault: HTTP ${status}`)
              .body,
          ),
          'application/json',
        ]
      : typeof body === 'string'
        ? [body, 'text/plain; charset=utf-8']
        : [JSON.stringify(body), 'application/json'];
  // A status that never carries a body (a 204 fault, say) answers without one.
  if (NULL_BODY_STATUSES.has(status))
    return new Response(null, { status, headers: mergeHeaders(extraHeaders, options.headers) });
  const headers = mergeHeaders({ 'Content-Type': contentType }, extraHeaders, options.headers);
  return new Response(text, { status, headers });
}
