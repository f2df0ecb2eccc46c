/**
 * The record of the requests a fake Animal Store received.
 *
 * @module
 */
import type { JsonValue } from './responses.js';

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
  /** The headers, names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body parsed as JSON; the raw text when it is not JSON; `undefined` when there is none. */
  readonly body: JsonValue | undefined;
  /** When it was received, by the store's clock (milliseconds since the epoch). */
  readonly receivedAt: number;
  /**
   * The status the store answered with. Absent while the answer is still being made (an injected
   * delay), and when no response was sent (an injected network error, or a client that went away).
   */
  readonly status?: number;
}

/**
 * The body text as a {@link RecordedRequest} holds it.
 *
 * @example
 * ```ts
 * import { recordedBody } from './request-log.js';
 *
 * recordedBody('{"name":"Rex"}'); // { name: 'Rex' }
 * recordedBody('name=Rex'); // 'name=Rex'
 * recordedBody(''); // undefined
 * ```
 */
export function recordedBody(text: string): JsonValue | undefined {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return text;
  }
}

/**
 * The headers as a plain object with lower-case names.
 *
 * @example
 * ```ts
 * import { plainHeaders } from './request-log.js';
 *
 * plainHeaders(new Headers({ 'Content-Type': 'application/json' })); // { 'content-type': 'application/json' }
 * ```
 */
export function plainHeaders(headers: Headers): Record<string, string> {
  return Object.fromEntries(headers.entries());
}
