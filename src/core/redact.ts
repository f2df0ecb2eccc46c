/**
 * Keeping the API key out of what the client reports.
 *
 * Where: only in text the key can be in, which is what the service sends back (bodies, headers,
 * status text, request ids, errors of the connection) and what a caller wrote (`request()`'s path
 * and query). The SDK's own words (`animal-store-sdk:`, `GET`, `/pets`) are never rewritten, so a
 * key that is also a word (`pets`, `GET`, `k`) changes nothing but itself.
 *
 * How: in that text every occurrence of the key is replaced, in every form it takes on its way
 * back: each character raw, percent-encoded (UTF-8 or Latin-1, either hex case, `+` for a space) or
 * JSON-escaped (`\u0053`, `\/`, `\"`), mixed freely; in property names and header names too.
 *
 * @module
 */

const MASK = '[redacted]';
/** A header name holds only token characters, so the key in one becomes this. */
const NAME_MASK = 'redacted';

/** Either case of a number's hex digits, `width` wide: `[eE]9`. */
const hex = (value: number, width: number) =>
  value
    .toString(16)
    .padStart(width, '0')
    .replace(/[a-f]/g, (digit) => `[${digit}${digit.toUpperCase()}]`);

/** JSON's short escapes of the characters a key may hold. */
const JSON_ESCAPES: Readonly<Record<string, string>> = {
  '"': '\\\\"',
  '\\': '\\\\\\\\',
  '/': '\\\\/',
  '\t': '\\\\t',
};

/** Every form of one character of a key, as a regular expression: escapes first, so `\u005C` is not taken for `\`. */
function characterForms(character: string): string {
  const code = character.charCodeAt(0);
  const forms = [
    `\\\\u${hex(code, 4)}`,
    [...new TextEncoder().encode(character)].map((byte) => `%${hex(byte, 2)}`).join(''),
  ];
  if (code > 0x7f) forms.push(`%${hex(code, 2)}`);
  if (JSON_ESCAPES[character]) forms.push(JSON_ESCAPES[character]);
  if (character === ' ') forms.push('\\+');
  forms.push(character.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'));
  return `(?:${forms.join('|')})`;
}

/** A pattern that finds each of `secrets` in any of its forms, or `undefined` when there are none. */
export function keyPattern(secrets: Iterable<string>): RegExp | undefined {
  const keys = [...secrets].filter((secret) => secret !== '');
  if (keys.length === 0) return undefined;
  // Longest first, so that a key inside another key never leaves the rest of the longer one behind.
  keys.sort((a, b) => b.length - a.length);
  return new RegExp(keys.map((key) => [...key].map(characterForms).join('')).join('|'), 'g');
}

/**
 * `value` with each secret replaced, in any of its forms, in its strings, deeply: arrays, plain
 * objects (property names too), `Headers` (names too) and errors (message, stack and cause). A
 * client whose key comes from a function has used many keys: all are secrets.
 */
export function redact<T>(value: T, secrets: string | Iterable<string>): T {
  return redactWith(value, keyPattern(typeof secrets === 'string' ? [secrets] : secrets));
}

/** `value` with every match of `pattern` replaced, deeply, as {@link redact} does. */
export function redactWith<T>(value: T, pattern: RegExp | undefined): T {
  return pattern === undefined ? value : (redactValue(value, pattern) as T);
}

function redactValue(value: unknown, pattern: RegExp): unknown {
  if (typeof value === 'string') return value.replace(pattern, MASK);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, pattern));
  if (value instanceof Headers) {
    // Header names are case-insensitive, and `Headers` keeps them in lower case.
    const names = new RegExp(pattern.source, 'gi');
    const headers = new Headers();
    for (const [name, text] of value)
      headers.append(name.replace(names, NAME_MASK), text.replace(pattern, MASK));
    return headers;
  }
  if (value instanceof Error) return redactError(value, pattern);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.replace(pattern, MASK), redactValue(item, pattern)]),
    );
  }
  return value;
}

/** The error itself when it holds no secret; else a copy of it (same class) with each one replaced. */
function redactError(error: Error, pattern: RegExp): Error {
  const fields: Record<string, unknown> = { message: error.message, stack: error.stack, cause: error.cause };
  let copy: Error | undefined;
  for (const [name, field] of Object.entries(fields)) {
    const redacted = redactValue(field, pattern);
    if (redacted === field) continue;
    copy ??= Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error)) as Error;
    Object.defineProperty(copy, name, { value: redacted, writable: true, configurable: true });
  }
  return copy ?? error;
}
