/**
 * Which requests an injected fault or chaos applies to: the method, the path (exact, a pattern or a
 * RegExp), query parameters, headers, the JSON body and a predicate.
 *
 * @module
 */

import type { JsonValue } from '../rules/responses.js';
import { matchPattern } from '../rules/routes.js';
import type { RecordedRequest } from '../store/request-log.js';

/**
 * Which requests a fault applies to. Every given field must match; an empty match takes every request.
 *
 * @inline
 */
export interface FaultMatch {
  /** The request method, in any case. */
  readonly method?: string;
  /**
   * The path relative to the base URL, without the query. A string matches that path (a trailing slash
   * aside), where a `{name}` segment matches any one segment (`/pets/{petId}`); a RegExp is tested
   * against the path.
   */
  readonly path?: string | RegExp;
  /** Query parameters the URL must carry, each with this value (among its values, if repeated). */
  readonly query?: Readonly<Record<string, string>>;
  /** Headers the request must carry, each with exactly this value; names in any case. */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * What the JSON body must hold: an object matches a body object having these fields (recursively,
   * other fields allowed); an array or a plain value must be equal.
   */
  readonly body?: JsonValue;
  /**
   * Any test of the request as the request log records it (`method`, `url`, `path`, `headers`, `body`).
   * In process only; it runs while the store answers, so it must not throw (a throw is answered 500
   * `internal_error`).
   */
  readonly predicate?: (request: RecordedRequest) => boolean;
  /**
   * Apply from the nth request that matches the rest (1 for the first), counted from the injection:
   * `nth: 2` with the default `times: 1` fails the second matching request only. Earlier matching
   * requests pass as if the fault were not there.
   */
  readonly nth?: number;
}

/**
 * Checks a match's fields.
 *
 * @throws TypeError or RangeError naming the first field that is wrong, prefixed with `where`.
 */
export function checkMatch(match: FaultMatch | undefined, where: string): void {
  if (match === undefined) return;
  const { method, path, query, headers, predicate, nth } = match;
  if (method !== undefined && (typeof method !== 'string' || method === '')) {
    throw new TypeError(`${where}: match.method must be a method name such as "GET"`);
  }
  if (path !== undefined && typeof path !== 'string' && !(path instanceof RegExp)) {
    throw new TypeError(`${where}: match.path must be a string or a RegExp`);
  }
  for (const [field, record] of [
    ['query', query],
    ['headers', headers],
  ] as const) {
    if (record === undefined) continue;
    if (typeof record !== 'object' || record === null) {
      throw new TypeError(`${where}: match.${field} must be an object of strings`);
    }
    for (const [name, value] of Object.entries(record)) {
      if (typeof value !== 'string') throw new TypeError(`${where}: match.${field}.${name} must be a string`);
    }
  }
  if (predicate !== undefined && typeof predicate !== 'function') {
    throw new TypeError(`${where}: match.predicate must be a function`);
  }
  if (nth !== undefined && !(Number.isSafeInteger(nth) && nth >= 1)) {
    throw new RangeError(`${where}: match.nth must be a positive integer, got ${String(nth)}`);
  }
}

/** Whether a request matches every given field of `match` but `nth`, which the caller counts. */
export function matchesRequest(match: FaultMatch | undefined, request: RecordedRequest): boolean {
  if (match === undefined) return true;
  if (match.method !== undefined && match.method.toUpperCase() !== request.method) return false;
  if (match.path !== undefined && !pathMatches(match.path, request.path)) return false;
  if (match.query !== undefined) {
    const params = new URL(request.url).searchParams;
    for (const [name, value] of Object.entries(match.query)) {
      if (!params.getAll(name).includes(value)) return false;
    }
  }
  if (match.headers !== undefined) {
    for (const [name, value] of Object.entries(match.headers)) {
      if (request.headers[name.toLowerCase()] !== value) return false;
    }
  }
  if (match.body !== undefined && !contains(request.body, match.body)) return false;
  return match.predicate === undefined || match.predicate(request);
}

function pathMatches(expected: string | RegExp, path: string): boolean {
  if (typeof expected === 'string') return matchPattern(expected, path) !== undefined;
  expected.lastIndex = 0;
  return expected.test(path);
}

/** Whether `actual` holds `expected`: objects by their given fields, recursively; anything else equal. */
export function contains(actual: JsonValue | undefined, expected: JsonValue): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((item, index) => contains(actual[index], item))
    );
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
    return Object.entries(expected).every(
      ([key, value]) => Object.hasOwn(actual, key) && contains(actual[key], value),
    );
  }
  return actual === expected;
}
