/**
 * Which logged requests came closest to a match, and how each differs from it: what a fault that
 * never fired and a request that was expected but not received are reported with.
 *
 * @module
 */
import { contains, type FaultMatch, matchesRequest } from '../disruptions/fault-match.js';
import { CREDENTIAL_HEADERS, carriedSecrets, isSecretName, REDACTED, redactor } from '../recording/redact.js';
import type { JsonValue } from '../rules/responses.js';
import { matchPattern } from '../rules/routes.js';
import type { RecordedRequest } from '../store/request-log.js';

/**
 * Which requests to look for in a fake store's log: every given field must match, as in a fault's
 * `match` (`path` takes `{name}` segments or a RegExp; `query`, `headers` and `body` name only what
 * must be there).
 *
 * @example
 * ```ts
 * import type { RequestMatch } from 'animal-store-sdk/testing';
 *
 * const soldListed: RequestMatch = { method: 'GET', path: '/pets', query: { status: 'sold' } };
 * const rexCreated: RequestMatch = { method: 'POST', path: '/pets', body: { name: 'Rex' } };
 * ```
 */
export type RequestMatch = Omit<FaultMatch, 'nth' | 'predicate'>;

/**
 * A logged request that came close to a match, and how it differs.
 *
 * @example
 * ```ts
 * import type { NearMiss } from 'animal-store-sdk/testing';
 *
 * const miss: NearMiss = {
 *   request: 'GET /pets?status=available',
 *   index: 2,
 *   differences: ['query.status is "available", not "sold"'],
 * };
 * ```
 */
export interface NearMiss {
  /** The request, as `METHOD /path?query`, with a short view of its body. */
  readonly request: string;
  /** Its place in the request log, from 1. */
  readonly index: number;
  /** What differs from the match, one line each. */
  readonly differences: readonly string[];
}

/** Headers whose values are never shown: they carry keys. */
function isSecretHeader(name: string): boolean {
  return CREDENTIAL_HEADERS.has(name) || name === 'cookie' || isSecretName(name);
}

/** The credentials the requests carried, wherever else they appear (a path, a query, a body). */
function redactorOf(requests: readonly RecordedRequest[]): (text: string) => string {
  return redactor(requests.flatMap((request) => carriedSecrets(request.headers, request.url)));
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);

/** A request in one line: method, path, query and up to 60 characters of its body. */
export function describeRequest(request: RecordedRequest, redact = redactorOf([request])): string {
  const query = [...new URL(request.url).searchParams]
    .map(([name, value]) => `${name}=${isSecretName(name) ? REDACTED : value}`)
    .join('&');
  const body = request.body === undefined ? '' : ` ${truncate(redact(show(request.body)), 60)}`;
  return `${request.method} ${redact(request.path || '/')}${query === '' ? '' : redact(`?${query}`)}${body}`;
}

/** A match in one line: `POST /pets with body {"name":"Rex"}`. */
export function describeMatch(match: RequestMatch): string {
  const method = match.method?.toUpperCase() ?? 'any method';
  const path = match.path === undefined ? 'any path' : String(match.path);
  const query = match.query === undefined ? '' : `?${new URLSearchParams(match.query).toString()}`;
  const parts = [`${method} ${path}${query}`];
  if (match.headers !== undefined) {
    const names = Object.keys(match.headers).map((name) => name.toLowerCase());
    parts.push(`with headers ${names.join(', ')}`);
  }
  if (match.body !== undefined) parts.push(`with body ${truncate(show(match.body), 60)}`);
  return parts.join(' ');
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}

/** How `request` differs from `match`, one line per field; empty when it matches. */
export function differences(
  match: RequestMatch,
  request: RecordedRequest,
  redact = redactorOf([request]),
): string[] {
  return unredacted(match, request).map(redact);
}

function unredacted(match: RequestMatch, request: RecordedRequest): string[] {
  const found: string[] = [];
  if (match.method !== undefined && match.method.toUpperCase() !== request.method) {
    found.push(`method is ${request.method}, not ${match.method.toUpperCase()}`);
  }
  if (match.path !== undefined && !matchesRequest({ path: match.path }, request)) {
    found.push(
      `path is "${request.path}", not ${typeof match.path === 'string' ? `"${match.path}"` : String(match.path)}`,
    );
  }
  const params = new URL(request.url).searchParams;
  for (const [name, value] of Object.entries(match.query ?? {})) {
    const given = params.getAll(name);
    if (given.includes(value)) continue;
    found.push(
      given.length === 0
        ? `query.${name} is missing (expected "${value}")`
        : isSecretName(name)
          ? `query.${name} differs`
          : `query.${name} is ${given.map((one) => `"${one}"`).join(', ')}, not "${value}"`,
    );
  }
  for (const [name, value] of Object.entries(match.headers ?? {})) {
    const lower = name.toLowerCase();
    const given = request.headers[lower];
    if (given === value) continue;
    if (given === undefined) found.push(`header ${lower} is missing`);
    else if (isSecretHeader(lower)) found.push(`header ${lower} differs`);
    else found.push(`header ${lower} is "${given}", not "${value}"`);
  }
  if (match.body !== undefined) found.push(...bodyDifferences(match.body, request.body, 'body'));
  // A fault's match may carry a predicate, which only says no.
  const { predicate } = match as FaultMatch;
  if (found.length === 0 && predicate !== undefined && !predicate(request))
    found.push('its predicate returned false');
  return found;
}

function bodyDifferences(expected: JsonValue, actual: JsonValue | undefined, at: string): string[] {
  if (contains(actual, expected)) return [];
  const isObject = (value: unknown): value is Record<string, JsonValue> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);
  if (isObject(expected) && isObject(actual)) {
    return Object.entries(expected).flatMap(([key, value]) =>
      Object.hasOwn(actual, key)
        ? bodyDifferences(value, actual[key], `${at}.${key}`)
        : [`${at}.${key} is missing (expected ${show(value)})`],
    );
  }
  return [
    actual === undefined
      ? `${at} is missing`
      : `${at} is ${truncate(show(actual), 40)}, not ${truncate(show(expected), 40)}`,
  ];
}

/** Edit distance between two short strings: how near two paths are, to order near misses that differ as much. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The logged requests that do not match `match` but come closest, each with what differs (method,
 * path, query parameters, headers, body fields): fewest differences first, then the nearest path; at
 * most `count`. Header values that carry keys are never shown.
 *
 * @example
 * ```ts
 * import { createFakePetStore, nearMisses } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * await store.fetch(`${store.baseUrl}/pets?status=available`, { headers: { Authorization: 'Bearer test-api-key' } });
 * nearMisses({ path: '/pets', query: { status: 'sold' } }, store.requests);
 * // [{ request: 'GET /pets?status=available', index: 1, differences: ['query.status is "available", not "sold"'] }]
 * ```
 */
export function nearMisses(match: RequestMatch, log: readonly RecordedRequest[], count = 3): NearMiss[] {
  const expectedPath = typeof match.path === 'string' ? match.path : '';
  const redact = redactorOf(log);
  return log
    .map((request, position) => ({ request, position, found: differences(match, request, redact) }))
    .filter(({ found }) => found.length > 0)
    .map((entry) => ({
      ...entry,
      nearness:
        typeof match.path === 'string' && matchPattern(match.path, entry.request.path) !== undefined
          ? 0
          : distance(expectedPath, entry.request.path),
    }))
    .sort((a, b) => a.found.length - b.found.length || a.nearness - b.nearness || a.position - b.position)
    .slice(0, count)
    .map(({ request, position, found }) => ({
      request: describeRequest(request, redact),
      index: position + 1,
      differences: found,
    }));
}

/** Near misses as indented lines, or a line saying the log is empty. */
export function formatNearMisses(misses: readonly NearMiss[], received: number): string {
  if (received === 0) return '  The store received no request.';
  if (misses.length === 0) return `  None of the ${received} requests received comes close.`;
  const lines = misses.map(
    (miss) =>
      `    #${miss.index} ${miss.request}\n${miss.differences.map((line) => `        - ${line}`).join('\n')}`,
  );
  return `  The closest of the ${received} requests received:\n${lines.join('\n')}`;
}
