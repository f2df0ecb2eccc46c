/**
 * The record of the requests a fake Animal Store received.
 *
 * @module
 */

import type { AfterOperationFault } from '../disruptions/after-operation.js';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../rules/request-body.js';
import type { JsonValue } from '../rules/responses.js';

/**
 * One request the fake store received, as `store.requests` lists it.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * await store.fetch('http://animal-store.test/v1/pets', { headers: { Authorization: 'Bearer test-api-key' } });
 * const [request] = store.requests;
 * request?.path; // '/pets'
 * request?.headers.authorization; // 'Bearer test-api-key'
 * request?.status; // 200
 * ```
 */
export interface RecordedRequest {
  /** The method, upper case. */
  readonly method: string;
  /** The full URL, query included. */
  readonly url: string;
  /** The path relative to the base URL, without the query: `/pets`, `/pets/1`. */
  readonly path: string;
  /**
   * The query parameters, decoded: `{ limit: '10' }` for `?limit=10`; a parameter given more than
   * once has every value, in order (`{ status: ['sold', 'pending'] }`).
   */
  readonly query: Readonly<Record<string, string | readonly string[]>>;
  /** The headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON; the raw text when it is not JSON; `undefined` when there is none. */
  readonly body: JsonValue | undefined;
  /** When it was received, by the store's clock (milliseconds since the epoch). */
  readonly receivedAt: number;
  /**
   * The id the store named it by, sent back as the response's `X-Request-Id` (an injected fault's
   * own `X-Request-Id` header replaces it, here too).
   */
  readonly requestId: string;
  /**
   * The status the store answered with. Absent while the answer is still being made (an injected
   * delay), and when no response was sent (an injected network error, or a client that went away).
   */
  readonly status?: number;
  /**
   * Why the fake failed while answering, when it did: the request was answered 500
   * `internal_error` with this message.
   */
  readonly error?: string;
  /**
   * `true` when no route of the fake has the path (`GET /store/orders`): it was answered 404
   * `not_modelled`, and `store.verify()` of a `strict` store fails on it.
   */
  readonly unmodelled?: true;
  /** What chaos gave the request, when it gave it a fault or a delay (see `store.injectChaos`). */
  readonly chaos?: ChaosRecord;
  /**
   * The answer the store made, once made: kept even when a fault after the operation (`afterOperation`)
   * kept it from the client, whose `status` is then absent.
   */
  readonly response?: RecordedResponse;
  /** The fault that acted after the operation ran, when one did (see `FaultOptions.afterOperation`). */
  readonly afterOperation?: AfterOperationFault;
}

/**
 * The answer to one recorded request, as `store.requests` keeps it: the body as text, up to
 * {@link MAX_RECORDED_RESPONSE_BYTES}.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * await store.fetch(`${store.baseUrl}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
 * store.requests[0]?.response?.body; // '[]'
 * ```
 */
export interface RecordedResponse {
  /** The status. */
  readonly status: number;
  /** The headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's text (`''` for none), cut at {@link MAX_RECORDED_RESPONSE_BYTES} bytes. */
  readonly body: string;
  /** `true` when the body was longer than {@link MAX_RECORDED_RESPONSE_BYTES} and `body` is its start. */
  readonly truncated?: true;
  /** When the answer was made, by the store's clock (milliseconds since the epoch). */
  readonly answeredAt: number;
}

/**
 * The most bytes of a response body the request log keeps per request (64 KiB): a page of 100 pets
 * fits many times over, and 10,000 logged requests stay within a few hundred MiB at worst.
 *
 * @example
 * ```ts
 * import { MAX_RECORDED_RESPONSE_BYTES } from 'animal-store-sdk/testing';
 *
 * MAX_RECORDED_RESPONSE_BYTES; // 65536
 * ```
 */
export const MAX_RECORDED_RESPONSE_BYTES = 65_536;

/** What a response looked like, for the log: its body read from a copy, cut at `limit` bytes. */
export async function recordResponse(
  response: Response,
  answeredAt: number,
  limit: number = MAX_RECORDED_RESPONSE_BYTES,
): Promise<RecordedResponse> {
  const bytes =
    response.body === null ? new Uint8Array() : new Uint8Array(await response.clone().arrayBuffer());
  const truncated = bytes.length > limit;
  const body = new TextDecoder().decode(truncated ? bytes.subarray(0, limit) : bytes);
  return {
    status: response.status,
    headers: plainHeaders(response.headers),
    body,
    ...(truncated ? { truncated: true as const } : {}),
    answeredAt,
  };
}

/**
 * What chaos gave one request, as the request log records it: the seed, the request's number among
 * those chaos considered (from 1), and the fault: a `status`, a `networkError`, a `delayMs`, or a delay
 * and a fault together. With the same seed, the same request number gets the same fault.
 *
 * @example
 * ```ts
 * import type { ChaosRecord } from 'animal-store-sdk/testing';
 *
 * const record: ChaosRecord = { seed: 42, index: 3, status: 503 };
 * ```
 */
export interface ChaosRecord {
  /** The seed chaos was given. */
  readonly seed: number;
  /** The request's number among the requests chaos considered, from 1. */
  readonly index: number;
  /** The status it was answered with. */
  readonly status?: number;
  /** `true` when its connection was closed without an answer. */
  readonly networkError?: true;
  /** How long its answer was held. */
  readonly delayMs?: number;
  /** The fault that acted after the operation ran, when chaos picked one. */
  readonly afterOperation?: AfterOperationFault;
}

/**
 * The body text as a {@link RecordedRequest} holds it.
 */
export function recordedBody(text: string): JsonValue | undefined {
  if (text === '') return undefined;
  // Deeply nested JSON is kept as text: copying it for `store.requests` would exhaust the stack.
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) return text;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/**
 * The query of a URL as a {@link RecordedRequest} holds it: one value as a string, repeated ones as an array.
 */
export function parsedQuery(url: URL): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    query[name] = values.length === 1 ? (values[0] ?? '') : values;
  }
  return query;
}

/**
 * The headers as a plain object with lower-case names.
 */
export function plainHeaders(headers: Headers): Record<string, string> {
  // Lower-cased here: a DOM test environment's own `Headers` (happy-dom's) keeps the case it was given.
  return Object.fromEntries([...headers.entries()].map(([name, value]) => [name.toLowerCase(), value]));
}

/**
 * The requests a store keeps: every one by default, or the latest `limit`, the oldest dropped first
 * and counted.
 */
export class RequestLog {
  readonly #limit: number;
  #entries: RecordedRequest[] = [];
  /** Where the oldest entry is, once the log is full and wraps around. */
  #start = 0;
  #dropped = 0;

  /** @param limit - How many requests to keep: a non-negative integer or `Infinity`. */
  constructor(limit: number) {
    if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 0))) {
      throw new RangeError(`maxRecordedRequests must be an integer >= 0 or Infinity, got ${String(limit)}`);
    }
    this.#limit = limit;
  }

  /** How many requests were dropped to stay within the limit since the log was last cleared. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Records a request, dropping the oldest when the log is full. */
  push(entry: RecordedRequest): void {
    if (this.#entries.length < this.#limit) {
      this.#entries.push(entry);
      return;
    }
    this.#dropped++;
    if (this.#limit === 0) return;
    this.#entries[this.#start] = entry;
    this.#start = (this.#start + 1) % this.#limit;
  }

  /** The kept requests, oldest first. */
  entries(): RecordedRequest[] {
    return [...this.#entries.slice(this.#start), ...this.#entries.slice(0, this.#start)];
  }

  /** Forgets every request and the count of dropped ones. */
  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#dropped = 0;
  }
}
