/**
 * The rules for headers a caller adds, client-wide or per call. They are checked up front so a
 * bad header is a clear validation error rather than a request `fetch` refuses (and the client
 * would retry as a lost connection).
 *
 * @module
 */
import { addProblem, type Issue, isRecord } from './validate.js';

/** Header name → value pairs, in the order given. */
export type HeaderEntries = [name: string, value: string][];

/** Headers the client sets itself, or that belong to the connection: a caller's value would break the request. */
const RESERVED = new Set([
  'accept',
  'authorization',
  'connection',
  'content-length',
  'content-type',
  'expect',
  'host',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** RFC 9110 token characters. */
const TOKEN = /^[!#$%&'*+.^`|~\w-]+$/;

/**
 * What `fetch` sends as a field value (RFC 9110 `field-content`, as undici checks it): tab, space,
 * visible ASCII and Latin-1 beyond; no control character.
 */
export const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function problemWith(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (RESERVED.has(name.toLowerCase())) return 'is set by the client';
  if (typeof value !== 'string') return 'must have a string value';
  if (!FIELD_VALUE.test(value)) return 'must be Latin-1 text without control characters';
  return undefined;
}

/** The pairs of headers given as the client takes them, or `undefined` for a type it does not take. */
function givenPairs(value: unknown): unknown[] | undefined {
  if (value instanceof Headers) return [...value];
  if (Array.isArray(value)) return value;
  // A plain object only: a Map's or a class's entries are not its headers. Entries keep every own
  // key, `__proto__` included, which an object spread would lose.
  const prototype = isRecord(value) ? Object.getPrototypeOf(value) : undefined;
  return prototype === Object.prototype || prototype === null ? Object.entries(value as object) : undefined;
}

/**
 * Headers given as a `Headers`, an array of pairs or an object, as entries in the order given; every
 * bad header is recorded in `problems` under `path`, so that none is dropped in silence.
 */
export function headerEntries(value: unknown, path: PropertyKey[], problems: Issue[]): HeaderEntries {
  const entries: HeaderEntries = [];
  const pairs = givenPairs(value);
  if (pairs === undefined) {
    addProblem(
      problems,
      path,
      'Expected headers: an object, an array of [name, value] pairs or a Headers',
      value,
    );
    return entries;
  }
  for (const [index, pair] of pairs.entries()) {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== 'string') {
      addProblem(problems, [...path, index], 'Expected a [name, value] pair', pair);
      continue;
    }
    const [name, text] = pair as [string, unknown];
    const problem = problemWith(name, text);
    if (problem === undefined) entries.push([name, text as string]);
    else
      addProblem(
        problems,
        [...path, Array.isArray(value) ? index : name],
        `Header "${name}" ${problem}`,
        name,
      );
  }
  return entries;
}
