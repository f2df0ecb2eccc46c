/**
 * Keeping the API key out of what the client reports. A service (or a proxy in front of it) that
 * echoes the key back in a body or a header must not get it into an error, a log line or JSON.
 *
 * @module
 */

const MASK = '[redacted]';

/**
 * `value` with every occurrence of each secret in its strings replaced, deeply (arrays, plain
 * objects, Headers). A client whose key comes from a function has used many keys: all are secrets.
 */
export function redact<T>(value: T, secrets: string | Iterable<string>): T {
  return redactValue(value, typeof secrets === 'string' ? [secrets] : [...secrets]) as T;
}

function redactText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.replaceAll(secret, MASK);
  return result;
}

function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return value;
  if (typeof value === 'string') return redactText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (value instanceof Headers) {
    const headers = new Headers();
    for (const [name, text] of value) headers.append(name, redactText(text, secrets));
    return headers;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, secrets)]));
  }
  return value;
}
