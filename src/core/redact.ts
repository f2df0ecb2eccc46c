/**
 * Keeping the API key out of what the client reports. A service (or a proxy in front of it) that
 * echoes the key back in a body or a header must not get it into an error, a log line or JSON.
 *
 * @module
 */

const MASK = '[redacted]';

/** `value` with every occurrence of `secret` in its strings replaced, deeply (arrays, plain objects, Headers). */
export function redact<T>(value: T, secret: string): T {
  return redactValue(value, secret) as T;
}

function redactValue(value: unknown, secret: string): unknown {
  if (typeof value === 'string') return value.includes(secret) ? value.replaceAll(secret, MASK) : value;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secret));
  if (value instanceof Headers) {
    const headers = new Headers();
    for (const [name, text] of value) headers.append(name, redactValue(text, secret) as string);
    return headers;
  }
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, redactValue(item, secret)]));
  }
  return value;
}
