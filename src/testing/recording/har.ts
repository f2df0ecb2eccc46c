/**
 * The request log as HAR 1.2 (the HTTP Archive format browsers and many tools read), every API key
 * redacted.
 *
 * @module
 */
import type { AfterOperationFault } from '../disruptions/after-operation.js';
import type { RecordedRequest } from '../store/request-log.js';
import {
  CREDENTIAL_HEADERS,
  carriedSecrets,
  isSecretName,
  REDACTED,
  redactCookie,
  redactCredentials,
  redactor,
  redactSetCookie,
} from './redact.js';

/**
 * A name and a value, as HAR lists headers and query parameters.
 *
 * @inline
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
 * @inline
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
    /** Always empty: a `Cookie` header is in `headers`. */
    readonly cookies: readonly HarNameValue[];
    /** The headers, credentials, key headers and cookie values redacted. */
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
 * What `store.toHAR()` keeps that it would otherwise redact.
 *
 * @example
 * ```ts
 * import { createFakePetStore, type HarOptions } from 'animal-store-sdk/testing';
 *
 * const options: HarOptions = { keepCookies: true };
 * createFakePetStore().toHAR(options);
 * ```
 */
export interface HarOptions {
  /**
   * Keep the values of `Cookie` and `Set-Cookie` headers. Default `false`: each cookie's value is
   * `[REDACTED]`, its name and attributes kept, and the values are redacted wherever else they appear.
   */
  readonly keepCookies?: boolean;
}

/**
 * The requests as a HAR 1.2 archive. Every form of every string in `secrets`, and of every
 * credential a request carried (see `carriedSecrets`), is replaced by `[REDACTED]` wherever it
 * appears (URLs, headers, bodies); `Authorization` values keep only their scheme, and key headers,
 * key parameters and cookies keep only their names.
 */
export function toHar(
  requests: readonly RecordedRequest[],
  secrets: Iterable<string>,
  options: HarOptions = {},
): Har {
  const keepCookies = options.keepCookies === true;
  const secretsOf = (headers: Readonly<Record<string, string>>, url: string) =>
    carriedSecrets(keepCookies ? withoutCookies(headers) : headers, url);
  const carried = requests.flatMap((request) => [
    ...secretsOf(request.headers, request.url),
    ...secretsOf(request.response?.headers ?? {}, ''),
  ]);
  const redact = redactor([...secrets, ...carried]);
  return {
    log: {
      version: '1.2',
      creator: CREATOR,
      entries: requests.map((request) => entry(request, redact, keepCookies)),
    },
  };
}

function withoutCookies(headers: Readonly<Record<string, string>>): Record<string, string> {
  const { cookie: _, 'set-cookie': __, ...rest } = headers;
  return rest;
}

function entry(request: RecordedRequest, redact: (text: string) => string, keepCookies: boolean): HarEntry {
  const bodyText = requestBodyText(request);
  const { response } = request;
  const answered = response !== undefined && request.status !== undefined;
  const time = Math.max(0, (response?.answeredAt ?? request.receivedAt) - request.receivedAt);
  const responseBody = answered ? redact(response.body) : '';
  const query = URL.canParse(request.url) ? [...new URL(request.url).searchParams] : [];
  return {
    startedDateTime: new Date(request.receivedAt).toISOString(),
    time,
    request: {
      method: request.method,
      url: redactedUrl(request.url, redact),
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: headerList(request.headers, redact, keepCookies),
      queryString: query.map(([name, value]) => ({
        name: redact(name),
        value: isSecretName(name) ? REDACTED : redact(value),
      })),
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
      headers: answered ? headerList(response.headers, redact, keepCookies) : [],
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

/**
 * The URL with its path and query redacted and its user and password dropped; the origin is left as
 * it is, so a secret that happens to match part of it (`http`, `/`) cannot break the URL.
 */
function redactedUrl(href: string, redact: (text: string) => string): string {
  if (!URL.canParse(href)) return redact(href);
  const url = new URL(href);
  const query = url.search
    .slice(1)
    .split('&')
    .map((part) => {
      const name = part.split('=')[0] ?? '';
      return part.includes('=') && isSecretName(name) ? `${name}=${REDACTED}` : part;
    })
    .join('&');
  return `${url.origin}${redact(url.pathname)}${url.search === '' ? '' : `?${redact(query)}`}`;
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

function headerList(
  headers: Readonly<Record<string, string>>,
  redact: (text: string) => string,
  keepCookies: boolean,
): HarNameValue[] {
  return Object.entries(headers).map(([name, value]) => ({ name, value: headerValue(name, value) }));

  function headerValue(name: string, value: string): string {
    if (CREDENTIAL_HEADERS.has(name)) return redactCredentials(value);
    if (name === 'cookie') return keepCookies ? redact(value) : redactCookie(value);
    if (name === 'set-cookie') return keepCookies ? redact(value) : redactSetCookie(value);
    return isSecretName(name) ? REDACTED : redact(value);
  }
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}
