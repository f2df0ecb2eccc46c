/**
 * A snapshot serializer for a fake store and its request log that prints the same on every run and
 * every runtime: times relative to the first request on a fake clock (none on a real one), request ids
 * in order of appearance, and none of the headers a runtime adds by itself.
 *
 * @module
 */
import {
  CREDENTIAL_HEADERS,
  carriedSecrets,
  isSecretName,
  redactCookie,
  redactCredentials,
  redactor,
  redactSetCookie,
} from '../recording/redact.js';
import type { RecordedRequest } from '../store/request-log.js';

/**
 * The headers left out of snapshots: a runtime, a browser or the HTTP stack adds them by itself, and
 * they differ between Node, Bun, Deno, browsers and the ways into the fake.
 */
export const RUNTIME_HEADERS: readonly string[] = Object.freeze([
  'accept-encoding',
  'accept-language',
  'connection',
  'content-length',
  'host',
  'keep-alive',
  'origin',
  'priority',
  'referer',
  'transfer-encoding',
  'user-agent',
]);

/** Runtime-added headers that come as a family: `sec-fetch-mode`, `sec-ch-ua`, ... */
const RUNTIME_HEADER_PREFIX = 'sec-';

/** What a secret is printed as: a snapshot is often committed. */
const MARKER = '[redacted]';

/**
 * A snapshot serializer as vitest's and Jest's `expect.addSnapshotSerializer` take it (pretty-format's
 * plugin).
 *
 * @inline
 */
export interface SnapshotSerializer {
  /** Whether the serializer takes this value. */
  test(value: unknown): boolean;
  /**
   * The value, printed with `printer` (pretty-format's, which vitest and Jest pass with their `config`
   * and `refs`).
   */
  serialize<Config, Refs>(
    value: unknown,
    config: Config,
    indentation: string,
    depth: number,
    refs: Refs,
    printer: (value: unknown, config: Config, indentation: string, depth: number, refs: Refs) => string,
  ): string;
}

function isRecordedRequest(value: unknown): value is RecordedRequest {
  const request = value as Partial<RecordedRequest> | null;
  return (
    typeof request === 'object' &&
    request !== null &&
    typeof request.method === 'string' &&
    typeof request.path === 'string' &&
    typeof request.receivedAt === 'number' &&
    typeof request.requestId === 'string'
  );
}

function isRequestLog(value: unknown): value is readonly RecordedRequest[] {
  return Array.isArray(value) && value.length > 0 && value.every(isRecordedRequest);
}

function isStore(
  value: unknown,
): value is { readonly pets: unknown[]; readonly requests: RecordedRequest[] } {
  const store = value as { pets?: unknown; requests?: unknown; verify?: unknown } | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    Array.isArray(store.pets) &&
    Array.isArray(store.requests) &&
    typeof store.verify === 'function'
  );
}

/**
 * Whether `Date` is faked: @sinonjs/fake-timers, behind vitest's and Jest's fake timers, marks its
 * `Date` with `isFake`. Only then are times printed: on a real clock the time between two requests is
 * the machine's, and any rounding of it flips between runs at some boundary.
 */
function clockIsFake(): boolean {
  return (Date as { isFake?: unknown }).isFake === true;
}

/** Credentials show their scheme only, key headers and cookies their names; any other value is redacted. */
function stableHeaders(
  headers: Readonly<Record<string, string>>,
  redact: (text: string) => string,
): Record<string, string> {
  const kept = Object.keys(headers)
    .filter((name) => !RUNTIME_HEADERS.includes(name) && !name.startsWith(RUNTIME_HEADER_PREFIX))
    .sort();
  return Object.fromEntries(
    kept.map((name) => {
      const value = headers[name] ?? '';
      if (CREDENTIAL_HEADERS.has(name)) return [name, redactCredentials(value, MARKER)];
      if (name === 'cookie') return [name, redactCookie(value, MARKER)];
      if (name === 'set-cookie') return [name, redactSetCookie(value, MARKER)];
      return [name, isSecretName(name) ? MARKER : redact(value)];
    }),
  );
}

/** Every string in `value`, keys included, with the secrets redacted. */
function redactDeep(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, redact));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [redact(name), redactDeep(item, redact)]),
  );
}

/**
 * Response headers that change with the moment or the run: the date, and the rate-limit reset, which
 * counts seconds on the store's clock.
 */
const MOMENT_HEADERS = new Set(['date', 'x-ratelimit-reset']);

/** The log with stable times, ids and headers; other fields as they are, the URL (host and port) left out. */
function stableLog(log: readonly RecordedRequest[]): Record<string, unknown>[] {
  const first = log[0]?.receivedAt ?? 0;
  const exact = clockIsFake();
  const time = (at: number) => (exact ? `+${at - first}ms` : undefined);
  const ids = new Map<string, string>();
  const idOf = (id: string) => {
    if (!ids.has(id)) ids.set(id, `request-${ids.size + 1}`);
    return ids.get(id) ?? id;
  };
  const redact = redactor(
    log.flatMap(({ headers, url, response }) => [
      ...carriedSecrets(headers, url),
      ...carriedSecrets(response?.headers ?? {}, ''),
    ]),
    MARKER,
  );
  return log.map(({ url, receivedAt, requestId, headers, query, response, path, body, ...rest }) => {
    const fields = {
      at: time(receivedAt),
      requestId: idOf(requestId),
      path: redact(path),
      body: redactDeep(body, redact),
      ...rest,
      ...(query === undefined || Object.keys(query).length === 0
        ? {}
        : {
            query: Object.fromEntries(
              Object.entries(query).map(([name, value]) => [
                name,
                isSecretName(name) ? MARKER : redactDeep(value, redact),
              ]),
            ),
          }),
      headers: stableHeaders(headers, redact),
      ...(response === undefined
        ? {}
        : {
            response: withoutUndefined({
              ...response,
              body: redact(response.body),
              answeredAt: time(response.answeredAt),
              headers: Object.fromEntries(
                Object.entries(stableHeaders(response.headers, redact))
                  .filter(([name]) => !MOMENT_HEADERS.has(name))
                  // Location and Link name the store's origin, which differs by the way in: kept as paths.
                  .map(([name, value]) => [
                    name,
                    name === 'x-request-id' ? idOf(value) : value.replaceAll(new URL(url).origin, ''),
                  ]),
              ),
            }),
          }),
    };
    return withoutUndefined(fields);
  });
}

/** A field the request lacks (a body, a status, a time on a real clock) is left out, not printed as undefined. */
function withoutUndefined(fields: object): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

/**
 * A snapshot serializer for a fake store (its pets and its request log) and for a request log
 * (`store.requests`, `await remote.requests`, or one request of it), for vitest and Jest: it prints
 * the same on every run and every runtime. On a fake clock (fake `Date`), times are exact and relative
 * to the first request (`at: '+1500ms'`); on a real one they are left out, as the time between two
 * requests is the machine's and would differ between runs. Request ids are numbered in order of
 * appearance (`request-1`, ...), the URL's host and port are left out (the path and the parsed query
 * stay), as are the headers a runtime adds by itself (`fakePetStoreConstants.runtimeHeaders` and `sec-*`), and an
 * `Authorization` header shows its scheme only.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createFakePetStore, fakePetStoreSerializer } from 'animal-store-sdk/testing';
 * import { expect, it } from 'vitest';
 *
 * expect.addSnapshotSerializer(fakePetStoreSerializer);
 *
 * it('lists, then adds', async () => {
 *   const store = createFakePetStore();
 *   const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: store.baseUrl, fetch: store.fetch });
 *   await client.listPets({ status: 'available' });
 *   await client.createPet({ name: 'Rex', categoryId: 1 });
 *
 *   expect(store.requests).toMatchSnapshot();
 * });
 * ```
 */
export const fakePetStoreSerializer: SnapshotSerializer = {
  test(value) {
    return isStore(value) || isRequestLog(value) || isRecordedRequest(value);
  },
  serialize(value, config, indentation, depth, refs, printer) {
    const stable = isStore(value)
      ? { pets: value.pets, requests: stableLog(value.requests) }
      : isRecordedRequest(value)
        ? stableLog([value])[0]
        : stableLog(value as readonly RecordedRequest[]);
    return printer(stable, config, indentation, depth, refs);
  },
};
