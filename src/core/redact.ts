/**
 * Keeping the API key out of what the client reports.
 *
 * Where: only in text the key can be in, which is what the service sends back (bodies, headers,
 * status text, request ids, errors of the connection) and what a caller wrote (`request()`'s path
 * and query). The SDK's own words (`animal-store-sdk:`, `GET`, `/pets`) are never rewritten, so a
 * key that is also a word (`pets`, `GET`, `k`) changes nothing but itself.
 *
 * How: in that text every occurrence of the key is replaced, in every form it takes on its way
 * back: each character raw, percent-encoded (UTF-8, `+` for a space) or JSON-escaped (`\u0053`,
 * `\/`, `\"`), mixed freely, in any case; in property names and header names too.
 *
 * @module
 */

import { redactError } from './redact-error.js';

const MASK = '[redacted]';
/** A header name holds only token characters, so the key in one becomes this. */
const NAME_MASK = 'redacted';

/**
 * Every form of one character of a key (Latin-1, as keys are), as a regular expression, the
 * escapes first so that `\u005C` is not taken for a `\` and the rest: `\u00XX`, percent-encoded
 * (UTF-8), JSON's own escape (`\"`, `\\`, `\/`, `\t`), `+` for a space, and the character itself,
 * written `\xXX` so that none has a meaning in the expression.
 */
function characterForms(character: string): string {
  const code = character.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const forms = [`\\\\u00${hex}`, code < 0x80 ? `%${hex}` : encodeURIComponent(character)];
  if ('"\\/\t'.includes(character)) forms.push(`\\\\${character === '\t' ? 't' : `\\x${hex}`}`);
  if (character === ' ') forms.push('\\+');
  forms.push(`\\x${hex}`);
  return `(?:${forms.join('|')})`;
}

/** A pattern that finds each of `secrets` (none empty) in any of its forms, or `undefined` when there are none. */
export function keyPattern(secrets: Iterable<string>): RegExp | undefined {
  const keys = [...secrets].map((key) => [...key].map(characterForms).join(''));
  // Case aside: hex digits come in either case, header names in lower case, and a proxy may change it.
  return keys.length === 0 ? undefined : new RegExp(keys.join('|'), 'gi');
}

/**
 * `value` with each secret replaced, in any of its forms, in its strings, deeply: arrays, plain
 * objects (property names too), `Headers` (names too) and errors (message, stack and cause). A
 * client whose key comes from a function has used many keys: all are secrets.
 */
export function redact<T>(value: T, secrets: string | Iterable<string>): T {
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  return redactWith(value, keyPattern(keys.filter((secret) => secret !== '')));
}

/**
 * `value` with every match of `pattern` replaced, deeply, as {@link redact} does. A value nested
 * deeper than the stack lets this walk it (hostile JSON) cannot be searched: it is redacted whole.
 */
export function redactWith<T>(value: T, pattern: RegExp | undefined): T {
  try {
    return pattern === undefined ? value : (redactValue(value, pattern) as T);
  } catch {
    return MASK as T;
  }
}

function redactValue(value: unknown, pattern: RegExp): unknown {
  if (typeof value === 'string') return value.replace(pattern, MASK);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, pattern));
  if (value instanceof Headers) {
    const headers = new Headers();
    for (const [name, text] of value)
      headers.append(name.replace(pattern, NAME_MASK), text.replace(pattern, MASK));
    return headers;
  }
  if (value instanceof Error) return redactError(value, (field) => redactValue(field, pattern));
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key.replace(pattern, MASK), redactValue(item, pattern)]),
    );
  }
  return value;
}
