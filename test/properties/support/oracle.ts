/**
 * What a valid argument is, written from the interface and the client's documentation rather
 * than from the client's schemas, so the properties check the client against an independent
 * reading.
 *
 * A verdict says what the client must do with an argument: send the request, reject it with a
 * RequestValidationError, or either (an object that is not a plain one but has no wrong field,
 * such as a Map, which TypeScript refuses but which carries nothing harmful).
 */

export type Verdict = 'send' | 'reject' | 'either';

export const STATUSES = ['available', 'pending', 'sold'] as const;

/** The longest timer `setTimeout` (and so the `timeout` option) supports. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

const TOKEN = /^[!#$%&'*+.^`|~0-9A-Za-z_-]+$/;

/** Headers the client documents as its own (or the connection's): a caller may not give them. */
const RESERVED_HEADERS = [
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
];

/** The verdict on an object whose own fields are otherwise all right. */
function objectVerdict(value: unknown): Verdict {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'reject';
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null ? 'send' : 'either';
}

function fieldsAllowed(value: object, allowed: readonly string[]): boolean {
  return Object.keys(value).every((key) => allowed.includes(key));
}

/** Combines verdicts: any rejection wins, then any doubt. */
export function all(...verdicts: Verdict[]): Verdict {
  if (verdicts.includes('reject')) return 'reject';
  return verdicts.includes('either') ? 'either' : 'send';
}

function check(condition: boolean): Verdict {
  return condition ? 'send' : 'reject';
}

function isStatus(value: unknown): boolean {
  return (STATUSES as readonly unknown[]).includes(value);
}

function isIntegerIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** An int64 a JavaScript number holds exactly. */
export function isId(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

export function listParamsVerdict(value: unknown): Verdict {
  if (value === undefined) return 'send';
  const shape = objectVerdict(value);
  if (shape === 'reject' || !fieldsAllowed(value as object, ['limit', 'status'])) return 'reject';
  const { limit, status } = value as Record<string, unknown>;
  return all(
    shape,
    check((limit === undefined || isIntegerIn(limit, 1, 100)) && (status === undefined || isStatus(status))),
  );
}

export function newPetVerdict(value: unknown): Verdict {
  const shape = objectVerdict(value);
  if (shape === 'reject' || !fieldsAllowed(value as object, ['name', 'categoryId', 'status']))
    return 'reject';
  const { name, categoryId, status } = value as Record<string, unknown>;
  return all(
    shape,
    check(typeof name === 'string' && isId(categoryId) && (status === undefined || isStatus(status))),
  );
}

export function petIdVerdict(value: unknown): Verdict {
  return check(isId(value));
}

/** A header value `fetch` sends (RFC 9110 field-content): tab, space, visible ASCII and Latin-1 beyond. */
export function isHeaderValue(value: unknown): value is string {
  return typeof value === 'string' && /^[\t\x20-\x7e\x80-\xff]*$/.test(value);
}

/** Headers as a `Headers`, an array of `[name, value]` pairs or a plain object; any other type is refused. */
function headersVerdict(value: unknown): Verdict {
  const pairs =
    value instanceof Headers ? [...value] : Array.isArray(value) ? [...(value as unknown[])] : undefined; // a hole is no pair
  const shape = pairs === undefined ? objectVerdict(value) : 'send';
  if (shape === 'reject') return 'reject';
  return all(
    shape,
    check(
      (pairs ?? Object.entries(value as object)).every(
        (pair) =>
          Array.isArray(pair) &&
          pair.length === 2 &&
          typeof pair[0] === 'string' &&
          TOKEN.test(pair[0]) &&
          !RESERVED_HEADERS.includes(pair[0].toLowerCase()) &&
          isHeaderValue(pair[1]),
      ),
    ),
  );
}

export function requestOptionsVerdict(value: unknown): Verdict {
  if (value === undefined || value === null) return 'send';
  const shape = objectVerdict(value);
  if (shape === 'reject' || !fieldsAllowed(value as object, ['signal', 'timeout', 'maxRetries', 'headers'])) {
    return 'reject';
  }
  const { signal, timeout, maxRetries, headers } = value as Record<string, unknown>;
  return all(
    shape,
    check(
      (signal === undefined || (signal instanceof AbortSignal && !signal.aborted)) &&
        (timeout === undefined || isIntegerIn(timeout, 1, MAX_TIMEOUT_MS)) &&
        (maxRetries === undefined || isIntegerIn(maxRetries, 0, 10)),
    ),
    headers === undefined ? 'send' : headersVerdict(headers),
  );
}
