/**
 * Answering from a recording: each request gets the answer recorded for the same request, matched
 * strictly, in the order they were recorded; one that was not recorded gets an Error naming the
 * nearest recorded request and how it differs.
 *
 * @module
 */
import * as z from 'zod';
import { NULL_BODY_STATUSES } from '../../shared/http-status.js';
import { type AfterOperationFault, isAfterOperationFault } from '../disruptions/after-operation.js';
import { ERROR_CODES, errorReply, type JsonReply } from '../rules/responses.js';
import type { RecordedRequest } from '../store/request-log.js';
import type { Har } from './har.js';

/**
 * What the fake answers a request no recorded request matches, in process too; also handed to the
 * `onReplayMismatch` option. Requests match on the method, the path under the base URL, the query
 * (parameters in any order), the body (JSON compared as values), the `Content-Type`'s media type and
 * whether an `Authorization` header is present (the key itself is redacted in a recording).
 *
 * @example
 * ```ts
 * import { createFakePetStore, ReplayMismatchError } from 'animal-store-sdk/testing';
 *
 * const mismatches: ReplayMismatchError[] = [];
 * const store = createFakePetStore({
 *   replay: { log: { version: '1.2', creator: { name: 'me', version: '1' }, entries: [] } },
 *   onReplayMismatch: (error) => mismatches.push(error),
 * });
 * await store.fetch(`${store.baseUrl}/pets`); // 501 not_recorded
 * mismatches[0] instanceof ReplayMismatchError; // true
 * ```
 */
export class ReplayMismatchError extends Error {
  /** The class name, `'ReplayMismatchError'`, kept through minification. */
  override readonly name = 'ReplayMismatchError';
  /** The request that was not recorded: `POST /pets?limit=2`. */
  readonly request: string;
  /** The index in the recording's `log.entries` of the nearest recorded request, if there is any. */
  readonly nearest: number | undefined;

  constructor(message: string, request: string, nearest: number | undefined) {
    super(message);
    this.request = request;
    this.nearest = nearest;
  }
}

const NameValues = z.array(z.looseObject({ name: z.string(), value: z.string() }));

/** The parts of a HAR 1.2 archive a replay reads; anything else in it is left alone. */
const HarSchema = z.looseObject({
  log: z.looseObject({
    entries: z.array(
      z.looseObject({
        request: z.looseObject({
          method: z.string(),
          url: z.string(),
          headers: NameValues,
          postData: z.looseObject({ text: z.string().optional() }).optional(),
        }),
        response: z.looseObject({
          status: z.number(),
          headers: NameValues,
          content: z.looseObject({ text: z.string().optional(), encoding: z.string().optional() }),
        }),
        _afterOperation: z.string().optional(),
      }),
    ),
  }),
});

/** A request as replay compares it: each field a string, so a difference is a plain inequality. */
interface Key {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly body: string;
  readonly contentType: string;
  readonly authorization: string;
}

/** The fields compared, with how much a difference in each counts when looking for the nearest. */
const FIELDS: readonly (readonly [keyof Key, number])[] = [
  ['method', 8],
  ['path', 8],
  ['query', 4],
  ['body', 4],
  ['contentType', 2],
  ['authorization', 1],
];

/** One recorded answer, ready to be sent again. */
interface Recorded {
  readonly key: Key;
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
  readonly afterOperation: string | undefined;
}

/** What a replay answers a request with. */
export type ReplayAnswer =
  | { readonly kind: 'response'; readonly response: Response; readonly afterOperation?: AfterOperationFault }
  | { readonly kind: 'network-error' }
  | { readonly kind: 'mismatch'; readonly reply: JsonReply; readonly error: ReplayMismatchError };

/** Headers of a recorded answer that described its transfer, not its content. */
const TRANSFER_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'connection',
  'keep-alive',
]);

/**
 * How a replay matches requests. `authorization: false` leaves out whether a request carries
 * `Authorization`, for a recording whose header was stripped (Polly.js's, say).
 */
export interface ReplayMatching {
  readonly authorization?: boolean | undefined;
}

/** The recorded answers of one store, and which have been used since it was created or reset. */
export class Replay {
  readonly #entries: readonly Recorded[];
  readonly #authorization: boolean;
  #used = new Set<number>();

  /** @throws TypeError when `har` is not a HAR archive with the fields replay reads. */
  constructor(har: Har, matching: ReplayMatching = {}) {
    this.#authorization = matching.authorization ?? true;
    const parsed = HarSchema.safeParse(har);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new TypeError(
        `replay: not a HAR archive: ${issue?.path.join('.') || 'the archive'}: ${issue?.message ?? 'invalid'}`,
      );
    }
    this.#entries = parsed.data.log.entries.map((entry, index) => {
      if (!URL.canParse(entry.request.url)) {
        throw new TypeError(`replay: not a HAR archive: log.entries.${index}.request.url is not a URL`);
      }
      const url = new URL(entry.request.url);
      const headers = lowerCased(entry.request.headers);
      return {
        key: this.#keyOf(
          entry.request.method,
          pathUnderVersion(url.pathname),
          url.searchParams,
          entry.request.postData?.text ?? '',
          headers,
        ),
        status: entry.response.status,
        headers: entry.response.headers
          .map(({ name, value }) => [name.toLowerCase(), value] as const)
          .filter(([name]) => !TRANSFER_HEADERS.has(name)),
        body:
          entry.response.content.encoding === 'base64'
            ? fromBase64(entry.response.content.text ?? '', index)
            : (entry.response.content.text ?? ''),
        afterOperation: entry._afterOperation,
      };
    });
  }

  /** Makes every recorded answer available again. */
  reset(): void {
    this.#used = new Set();
  }

  /** The next unused recorded answer to this request, or the mismatch naming the nearest. */
  answer(request: RecordedRequest, bodyText: string): ReplayAnswer {
    const key = this.#keyOf(
      request.method,
      request.path,
      new URL(request.url).searchParams,
      bodyText,
      request.headers,
    );
    let matched = 0;
    for (const [index, recorded] of this.#entries.entries()) {
      if (differences(recorded.key, key).length > 0) continue;
      matched++;
      if (this.#used.has(index)) continue;
      this.#used.add(index);
      return respond(recorded);
    }
    return mismatch(key, matched, this.#entries, this.#authorization);
  }

  #keyOf(...args: Parameters<typeof keyOf>): Key {
    const key = keyOf(...args);
    // Not compared: equal in every key.
    return this.#authorization ? key : { ...key, authorization: '' };
  }
}

function respond(recorded: Recorded): ReplayAnswer {
  if (recorded.status === 0) return { kind: 'network-error' };
  const nullBody = NULL_BODY_STATUSES.has(recorded.status);
  const response = new Response(nullBody ? null : recorded.body, {
    status: recorded.status,
    headers: recorded.headers.map(([name, value]): [string, string] => [name, value]),
  });
  return recorded.afterOperation !== undefined && isAfterOperationFault(recorded.afterOperation)
    ? { kind: 'response', response, afterOperation: recorded.afterOperation }
    : { kind: 'response', response };
}

function mismatch(
  key: Key,
  matched: number,
  entries: readonly Recorded[],
  authorization: boolean,
): ReplayAnswer {
  const described = describe(key);
  const rule = authorization
    ? 'Requests match on the method, the path, the query, the body, the Content-Type and whether Authorization is present.'
    : 'Requests match on the method, the path, the query, the body and the Content-Type.';
  if (matched > 0) {
    const message = `Replay: ${described} was recorded ${matched} time(s), and each recorded answer was used already (reset() makes them available again).`;
    return {
      kind: 'mismatch',
      reply: errorReply(501, ERROR_CODES.notRecorded, message),
      error: new ReplayMismatchError(message, described, undefined),
    };
  }
  let nearest: { index: number; distance: number; differ: (keyof Key)[] } | undefined;
  for (const [index, recorded] of entries.entries()) {
    const differ = differences(recorded.key, key);
    const distance = differ.reduce((sum, field) => sum + weight(field), 0);
    if (nearest === undefined || distance < nearest.distance) nearest = { index, distance, differ };
  }
  const message =
    nearest === undefined
      ? `Replay: no recorded request matches ${described}: the recording is empty.`
      : `Replay: no recorded request matches ${described}. The nearest recorded, entry ${nearest.index}: ${describe(
          (entries[nearest.index] as Recorded).key,
        )}, differs in ${nearest.differ
          .map(
            (field) =>
              `${field} (recorded ${shown((entries[nearest.index] as Recorded).key[field])}, got ${shown(key[field])})`,
          )
          .join(', ')}. ${rule}`;
  return {
    kind: 'mismatch',
    reply: errorReply(501, ERROR_CODES.notRecorded, message),
    error: new ReplayMismatchError(message, described, nearest?.index),
  };
}

function weight(field: keyof Key): number {
  return FIELDS.find(([name]) => name === field)?.[1] ?? 1;
}

function differences(recorded: Key, request: Key): (keyof Key)[] {
  return FIELDS.map(([field]) => field).filter((field) => recorded[field] !== request[field]);
}

function describe(key: Key): string {
  return `${key.method} ${key.path}${key.query === '' ? '' : `?${key.query}`}${key.body === '' ? '' : ` ${key.body}`}`;
}

function shown(value: string): string {
  return value === '' ? 'none' : JSON.stringify(value);
}

function keyOf(
  method: string,
  path: string,
  query: URLSearchParams,
  body: string,
  headers: Readonly<Record<string, string>>,
): Key {
  return {
    method: method.toUpperCase(),
    path: path.replace(/\/$/, '') || '/',
    // Parameters in any order: a client may build its query either way.
    query: [...query]
      .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1))
      .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
      .join('&'),
    body: canonicalBody(body),
    contentType: (headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '',
    authorization: headers.authorization === undefined ? 'absent' : 'present',
  };
}

/** JSON as its value (keys sorted, spacing dropped); any other text as it is. */
function canonicalBody(text: string): string {
  if (text === '') return '';
  try {
    return JSON.stringify(sortKeys(JSON.parse(text)));
  } catch {
    return text;
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((name) => [name, sortKeys((value as Record<string, unknown>)[name])]),
  );
}

/** The path under the recorded base URL: what follows its `/v1` segment (`/sessions/a/v1/pets` is `/pets`). */
function pathUnderVersion(pathname: string): string {
  const segments = pathname.split('/');
  const at = segments.indexOf('v1');
  return at === -1 ? pathname : `/${segments.slice(at + 1).join('/')}`;
}

/** @throws TypeError naming the entry when its text is not base64. */
function fromBase64(text: string, index: number): string {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    throw new TypeError(
      `replay: not a HAR archive: log.entries.${index}.response.content.text is not base64`,
    );
  }
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}

function lowerCased(headers: readonly { name: string; value: string }[]): Record<string, string> {
  return Object.fromEntries(headers.map(({ name, value }) => [name.toLowerCase(), value]));
}
