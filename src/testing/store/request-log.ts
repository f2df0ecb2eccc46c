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
  /**
   * The body parsed as JSON; the raw text when it is not JSON; `undefined` when there is none. Of a
   * request that failed authentication, only the text of its first `fakePetStoreConstants.unauthenticatedBodyBytes`
   * bytes is kept (read, the rest let go unread into memory), and `bodyTruncated` says so.
   */
  readonly body: JsonValue | undefined;
  /** `true` when `body` is the start of the body only: the request failed authentication. */
  readonly bodyTruncated?: true;
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
 * `fakePetStoreConstants.maxRecordedResponseBytes`.
 *
 * @inline
 */
export interface RecordedResponse {
  /** The status. */
  readonly status: number;
  /** The headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body's text (`''` for none), cut at `fakePetStoreConstants.maxRecordedResponseBytes` bytes. */
  readonly body: string;
  /** `true` when the body was longer than `fakePetStoreConstants.maxRecordedResponseBytes` and `body` is its start. */
  readonly truncated?: true;
  /** When the answer was made, by the store's clock (milliseconds since the epoch). */
  readonly answeredAt: number;
}

/**
 * The most bytes of a response body the request log keeps per request (64 KiB): a page of 100 pets
 * fits many times over, and 10,000 logged requests stay within a few hundred MiB at worst.
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
 * @inline
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
 * How much of the body of a request that failed authentication the store keeps (1 KiB): enough to
 * see what was sent, too little for a page sending such requests to grow the command.
 */
export const UNAUTHENTICATED_BODY_BYTES = 1024;

/** The size the log counts for headers: their names and values, in characters. */
export function headersSize(headers: Readonly<Record<string, string>>): number {
  let size = 0;
  for (const [name, value] of Object.entries(headers)) size += name.length + value.length;
  return size;
}

/**
 * The requests a store keeps: every one by default, or the latest `limit` within `maxBytes`, the
 * oldest dropped first and counted. The bytes are counted as the characters of each request's URL,
 * headers and body and of its answer's headers and body.
 */
export class RequestLog {
  readonly #limit: number;
  readonly #maxBytes: number;
  #entries: (RecordedRequest | undefined)[] = [];
  /** Where the oldest kept entry is: the ones before it were dropped. */
  #start = 0;
  #sizes = new Map<RecordedRequest, number>();
  #bytes = 0;
  #dropped = 0;

  /**
   * @param limit - How many requests to keep: a non-negative integer or `Infinity`.
   * @param maxBytes - How many bytes of them to keep: a non-negative integer or `Infinity`.
   */
  constructor(limit: number, maxBytes: number = Number.POSITIVE_INFINITY) {
    if (!isLimit(limit)) {
      throw new RangeError(`maxRecordedRequests must be an integer >= 0 or Infinity, got ${String(limit)}`);
    }
    if (!isLimit(maxBytes)) {
      throw new RangeError(`maxRecordedBytes must be an integer >= 0 or Infinity, got ${String(maxBytes)}`);
    }
    this.#limit = limit;
    this.#maxBytes = maxBytes;
  }

  /** How many requests were dropped to stay within the limits since the log was last cleared. */
  get dropped(): number {
    return this.#dropped;
  }

  /** How many bytes the kept requests count. */
  get bytes(): number {
    return this.#bytes;
  }

  /** Records a request of `bytes`, dropping the oldest while the log is over a limit. */
  push(entry: RecordedRequest, bytes: number): void {
    this.#entries.push(entry);
    this.#sizes.set(entry, bytes);
    this.#bytes += bytes;
    this.#trim();
  }

  /** Counts `bytes` more (its answer, once recorded) for a kept request, dropping as `push` does. */
  grow(entry: RecordedRequest, bytes: number): void {
    const size = this.#sizes.get(entry);
    if (size === undefined) return;
    this.#sizes.set(entry, size + bytes);
    this.#bytes += bytes;
    this.#trim();
  }

  /** The kept requests, oldest first. */
  entries(): RecordedRequest[] {
    return this.#entries.slice(this.#start) as RecordedRequest[];
  }

  /** Forgets every request and the count of dropped ones. */
  clear(): void {
    this.#entries = [];
    this.#start = 0;
    this.#sizes = new Map();
    this.#bytes = 0;
    this.#dropped = 0;
  }

  #trim(): void {
    while (this.#entries.length > this.#start) {
      if (this.#entries.length - this.#start <= this.#limit && this.#bytes <= this.#maxBytes) break;
      const oldest = this.#entries[this.#start] as RecordedRequest;
      this.#entries[this.#start] = undefined;
      this.#start++;
      this.#bytes -= this.#sizes.get(oldest) ?? 0;
      this.#sizes.delete(oldest);
      this.#dropped++;
    }
    // Dropped slots are let go now and then, so the array stays within twice what is kept.
    if (this.#start > 1024 && this.#start * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#start);
      this.#start = 0;
    }
  }
}

function isLimit(value: number): boolean {
  return value === Number.POSITIVE_INFINITY || (Number.isSafeInteger(value) && value >= 0);
}
