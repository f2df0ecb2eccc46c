/**
 * The rules for headers a caller adds, client-wide or per call. They are checked up front so a
 * bad header is a clear validation error rather than a failed request.
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

/** What `Headers` can carry: Latin-1 text without NUL or line breaks. */
export const FIELD_VALUE = /^[^\0\r\n\u0100-\uffff]*$/;

function problemWith(name: string, value: unknown): string | undefined {
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (RESERVED.has(name.toLowerCase())) return 'is set by the client';
  if (typeof value !== 'string') return 'must have a string value';
  if (!FIELD_VALUE.test(value)) return 'must be Latin-1 text without NUL or line breaks';
  return undefined;
}

/**
 * A plain object of extra headers as entries, in the order given; every bad header is recorded in
 * `problems` under `path`. Entries keep every own key, `__proto__` included, which an object spread
 * would lose.
 */
export function headerEntries(value: unknown, path: PropertyKey[], problems: Issue[]): HeaderEntries {
  const entries: HeaderEntries = [];
  if (!isRecord(value)) {
    addProblem(problems, path, 'Expected an object of headers', value);
    return entries;
  }
  for (const [name, text] of Object.entries(value)) {
    const problem = problemWith(name, text);
    if (problem === undefined) entries.push([name, text as string]);
    else addProblem(problems, [...path, name], `Header "${name}" ${problem}`, name);
  }
  return entries;
}
