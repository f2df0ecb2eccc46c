/**
 * Keeping the API key out of what the client reports: only in text the key can be in (what the
 * service sends back, what a caller wrote into `request()`), never in the SDK's own words, so a key
 * that is also a word (`pets`, `GET`) changes nothing but itself. Every form of the key is replaced:
 * each character raw, percent-encoded or JSON-escaped, mixed freely, in any case.
 *
 * @module
 */

import { redactError } from './redact-error.js';

const MASK = '[redacted]';

/**
 * Every form of one Latin-1 character, as a regular expression: `\u00XX`, percent-encoded, JSON's
 * own escape, `+` for a space, and the character itself as `\xXX`. Escapes come first, so that
 * `\u005C` is not taken for a `\`.
 */
function characterForms(character: string): string {
  const code = character.charCodeAt(0);
  const hex = code.toString(16).padStart(2, '0');
  const escaped = '"\\/\t'.includes(character) ? `|\\\\${character === '\t' ? 't' : `\\x${hex}`}` : '';
  const percent = code < 0x80 ? `%${hex}` : encodeURIComponent(character);
  return `(?:\\\\u00${hex}|${percent}${escaped}${character === ' ' ? '|\\+' : ''}|\\x${hex})`;
}

/** A pattern that finds each of `secrets` (none empty) in any of its forms, or `undefined` when there are none. */
export function keyPattern(secrets: Iterable<string>): RegExp | undefined {
  const keys = [...secrets].map((key) => [...key].map(characterForms).join(''));
  // Any case: hex digits come in either, header names in lower case, and a proxy may change it.
  return keys.length === 0 ? undefined : new RegExp(keys.join('|'), 'gi');
}

/**
 * `value` with each secret replaced in its strings, deeply: arrays, plain objects and `Headers`
 * (names too), errors (message, stack and cause).
 */
export function redact<T>(value: T, secrets: string | Iterable<string>): T {
  const keys = typeof secrets === 'string' ? [secrets] : [...secrets];
  return redactWith(value, keyPattern(keys.filter((secret) => secret !== '')));
}

/**
 * `value` with every match of `pattern` replaced, as {@link redact} does; a value nested deeper than
 * the stack allows (hostile JSON) is redacted whole.
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
    // A header name holds only token characters.
    for (const [name, text] of value)
      headers.append(name.replace(pattern, 'redacted'), text.replace(pattern, MASK));
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
