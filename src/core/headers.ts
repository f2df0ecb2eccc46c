/**
 * The rules for headers a caller adds, client-wide or per call: checked before anything is sent, since
 * a header `fetch` refuses would fail like a lost connection, and be retried as one.
 *
 * @module
 */
import { addProblem, type Issue, wrongType } from './validate.js';

/** Header name and value pairs, in the order given. */
export type HeaderEntries = [name: string, value: string][];

/** Headers the client sets itself, or that belong to the connection. */
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

/** A field value as undici checks it (RFC 9110 `field-content`): no control character, Latin-1 only. */
export const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

function problemWith(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (RESERVED.has(name.toLowerCase())) return 'is set by the client';
  if (typeof value !== 'string') return 'must have a string value';
  if (!FIELD_VALUE.test(value)) return 'must be Latin-1 text without control characters';
  return undefined;
}

/**
 * Headers given as `fetch` takes them (a `Headers`, an iterable of pairs, an object) as entries in
 * the order given, `__proto__` included; every bad header is recorded in `problems` under `path`.
 */
export function headerEntries(value: unknown, path: PropertyKey[], problems: Issue[]): HeaderEntries {
  const entries: HeaderEntries = [];
  const pairs =
    typeof value !== 'object' || value === null
      ? addProblem(problems, path, wrongType('object', value))
      : Symbol.iterator in value
        ? [...(value as Iterable<unknown>)]
        : Object.entries(value);
  for (const [index, pair] of (pairs ?? []).entries()) {
    const [name, text] = Array.isArray(pair) && pair.length === 2 ? pair : [];
    const named = typeof name === 'string';
    const problem = named ? problemWith(name, text) : 'is not a [name, value] pair';
    // A name that is not a string is shown by its place: it may not even convert to one.
    const label = named ? name : index;
    if (problem === undefined) entries.push([name, text]);
    else addProblem(problems, [...path, label], `Header "${label}" ${problem}`, name);
  }
  return entries;
}
