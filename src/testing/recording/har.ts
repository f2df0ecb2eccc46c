/**
 * The request log as HAR 1.2 (the HTTP Archive format browsers and many tools read), every API key
 * redacted.
 *
 * @module
 */
import type { AfterOperationFault } from '../disruptions/after-operation.js';
import type { RecordedRequest } from '../store/request-log.js';
import { redactor } from './redact.js';

/**
 * A name and a value, as HAR lists headers and query parameters.
 *
 * @example
 * ```ts
 * import type { HarNameValue } from 'animal-store-sdk/testing';
 *
 * const header: HarNameValue = { name: 'content-type', value: 'application/json' };
 * ```
 */
export interface HarNameValue {
  /** The name (header names in lower case, as the fake records them). */
  readonly name: string;
  /** The value. */
  readonly value: string;
}

/**
 * One request and its answer in a {@link Har}. A request that got no answer (a lost connection) has
 * `response.status` 0, as browsers write it, and replays as a lost connection.
 *
 * @example
 * ```ts
 * import type { HarEntry } from 'animal-store-sdk/testing';
 *
 * const entry: HarEntry = {
 *   startedDateTime: '2026-11-22T12:00:00.000Z',
 *   time: 2,
 *   request: {
 *     method: 'GET', url: 'http://animal-store.test/v1/pets', httpVersion: 'HTTP/1.1', cookies: [],
 *     headers: [], queryString: [], headersSize: -1, bodySize: 0,
 *   },
 *   response: {
 *     status: 200, statusText: 'OK', httpVersion: 'HTTP/1.1', cookies: [], headers: [],
 *     content: { size: 2, mimeType: 'application/json', text: '[]' }, redirectURL: '', headersSize: -1, bodySize: 2,
 *   },
 *   cache: {},
 *   timings: { send: 0, wait: 2, receive: 0 },
 * };
 * ```
 */
export interface HarEntry {
  /** When the request arrived, by the store's clock, as an ISO 8601 date. */
  readonly startedDateTime: string;
  /** Milliseconds from the request's arrival to its answer, by the store's clock. */
  readonly time: number;
  /** The request. */
  readonly request: {
    /** The method, upper case. */
    readonly method: string;
    /** The full URL, query included. */
    readonly url: string;
    /** Always `HTTP/1.1`. */
    readonly httpVersion: string;
    /** Always empty: the service uses no cookies. */
    readonly cookies: readonly HarNameValue[];
    /** The headers, `Authorization` with its credentials redacted. */
    readonly headers: readonly HarNameValue[];
    /** The query parameters, in order. */
    readonly queryString: readonly HarNameValue[];
    /** The body, when there was one. */
    readonly postData?: {
      /** The request's `Content-Type`. */
      readonly mimeType: string;
      /** The body's text. */
      readonly text: string;
    };
    /** Always -1: not measured. */
    readonly headersSize: number;
    /** The body's size in bytes. */
    readonly bodySize: number;
  };
  /** The answer, or status 0 when none was sent. */
  readonly response: {
    /** The status; 0 when no answer was sent. */
    readonly status: number;
    /** The status's reason phrase. */
    readonly statusText: string;
    /** Always `HTTP/1.1`. */
    readonly httpVersion: string;
    /** Always empty. */
    readonly cookies: readonly HarNameValue[];
    /** The headers. */
    readonly headers: readonly HarNameValue[];
    /** The body. */
    readonly content: {
      /** The body's size in bytes, as kept. */
      readonly size: number;
      /** The answer's `Content-Type`. */
      readonly mimeType: string;
      /** The body's text; absent when no answer was sent. */
      readonly text?: string;
      /** Says so when the body was cut at the request log's limit. */
      readonly comment?: string;
    };
    /** Always empty: the service does not redirect. */
    readonly redirectURL: string;
    /** Always -1: not measured. */
    readonly headersSize: number;
    /** The body's size in bytes. */
    readonly bodySize: number;
    /** Why there is no answer, when there is none. */
    readonly comment?: string;
  };
  /** Always empty: nothing is cached. */
  readonly cache: Readonly<Record<string, never>>;
  /** The time to the answer, all of it counted as `wait`. */
  readonly timings: {
    /** Always 0. */
    readonly send: number;
    /** The same as `time`. */
    readonly wait: number;
    /** Always 0. */
    readonly receive: number;
  };
  /** Names the fault after the operation the answer met, when one did. */
  readonly comment?: string;
  /** The fault after the operation the answer met, when one did: a replay meets it again. */
  readonly _afterOperation?: AfterOperationFault;
}

/**
 * An HTTP Archive, version 1.2: what `store.toHAR()` and `GET /__fake/requests.har` give, what
 * `animal-store-fake-server --record` writes, and what the `replay` option and `--replay` answer from.
 *
 * @example
 * ```ts
 * import { createFakePetStore, type Har } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * await store.fetch(`${store.baseUrl}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
 * const har: Har = store.toHAR();
 * har.log.entries[0]?.request.headers; // [..., { name: 'authorization', value: 'Bearer [REDACTED]' }]
 * ```
 */
export interface Har {
  /** The archive. */
  readonly log: {
    /** `1.2`. */
    readonly version: string;
    /** What wrote it. */
    readonly creator: {
      /** Its name. */
      readonly name: string;
      /** Its version. */
      readonly version: string;
    };
    /** Each request and its answer, oldest first. */
    readonly entries: readonly HarEntry[];
    /** A note on the archive. */
    readonly comment?: string;
  };
}

/** The creator named in every archive the fake writes. */
const CREATOR = { name: 'animal-store-sdk fake Animal Store', version: '1' } as const;

/** HAR's `statusText` for the statuses the service and the fake send; others get an empty one. */
const STATUS_TEXT: Readonly<Record<number, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * The requests as a HAR 1.2 archive. Every string in `secrets`, and every bearer token the requests
 * carry, is replaced by `[REDACTED]` wherever it appears (URLs, headers, bodies), and so is the whole
 * value of an `Authorization` header but its scheme.
 */
export function toHar(requests: readonly RecordedRequest[], secrets: Iterable<string>): Har {
  const redact = redactor([...secrets, ...requests.flatMap(bearerToken)]);
  return {
    log: { version: '1.2', creator: CREATOR, entries: requests.map((request) => entry(request, redact)) },
  };
}

function entry(request: RecordedRequest, redact: (text: string) => string): HarEntry {
  const url = new URL(redact(request.url));
  const bodyText = requestBodyText(request);
  const { response } = request;
  const answered = response !== undefined && request.status !== undefined;
  const time = Math.max(0, (response?.answeredAt ?? request.receivedAt) - request.receivedAt);
  const responseBody = answered ? redact(response.body) : '';
  return {
    startedDateTime: new Date(request.receivedAt).toISOString(),
    time,
    request: {
      method: request.method,
      url: url.href,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(request.headers, redact),
      queryString: [...url.searchParams].map(([name, value]) => ({ name, value })),
      ...(bodyText === undefined
        ? {}
        : { postData: { mimeType: request.headers['content-type'] ?? '', text: redact(bodyText) } }),
      headersSize: -1,
      bodySize: bodyText === undefined ? 0 : byteLength(bodyText),
    },
    response: {
      status: answered ? response.status : 0,
      statusText: answered ? (STATUS_TEXT[response.status] ?? '') : '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: answered ? headerList(response.headers, redact) : [],
      content: {
        size: byteLength(responseBody),
        mimeType: answered ? (response.headers['content-type'] ?? '') : '',
        ...(answered ? { text: responseBody } : {}),
        ...(answered && response.truncated === true
          ? { comment: 'Cut at the request log’s limit on response bodies' }
          : {}),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: answered ? byteLength(responseBody) : 0,
      ...(answered ? {} : { comment: noAnswer(request) }),
    },
    cache: {},
    timings: { send: 0, wait: time, receive: 0 },
    ...(request.afterOperation === undefined
      ? {}
      : {
          comment: `A fault after the operation: ${request.afterOperation}`,
          _afterOperation: request.afterOperation,
        }),
  };
}

/** Why a request has no answer in the archive. */
function noAnswer(request: RecordedRequest): string {
  if (request.afterOperation !== undefined) return `No response: ${request.afterOperation}`;
  return request.response === undefined ? 'No response: the connection was closed' : 'No response';
}

/** The body as it was sent: JSON the log parsed is written back as JSON. */
function requestBodyText(request: RecordedRequest): string | undefined {
  const { body } = request;
  if (body === undefined) return undefined;
  return typeof body === 'string' ? body : JSON.stringify(body);
}

const AUTHORIZATION_HEADERS = new Set(['authorization', 'proxy-authorization']);

function headerList(
  headers: Readonly<Record<string, string>>,
  redact: (text: string) => string,
): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({
    name,
    value: AUTHORIZATION_HEADERS.has(name) ? redactCredentials(value) : redact(value),
  }));
}

/** `Bearer abc` as `Bearer [REDACTED]`: the scheme stays, the credentials never do. */
function redactCredentials(value: string): string {
  const scheme = /^\s*(\S+)\s+\S/.exec(value)?.[1];
  return scheme === undefined ? '[REDACTED]' : `${scheme} [REDACTED]`;
}

function bearerToken(request: RecordedRequest): string[] {
  const token = /^\s*Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
  return token === undefined ? [] : [token];
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
