/**
 * The errors the client throws, all instances of {@link PetStoreError}. None holds the request or
 * the API key, so each is safe to log and serialize.
 *
 * Fields are `declare`d and set in the constructors, so a bundle defines each once; `name` is set
 * as a literal, which a minifier would otherwise mangle.
 *
 * @module
 */
import type { StandardSchemaV1 } from './core/standard-schema.js';
import type { RateLimit } from './core/types.js';
import { ErrorBodySchema } from './schemas.js';
import { readRequestId } from './shared/request-id.js';

/**
 * Whether a failed call's request reached the service ({@link PetStoreError.sent}).
 *
 * @inline
 */
export type RequestSent = 'no' | 'maybe' | 'yes';

/**
 * The base class of every error this package throws.
 *
 * @example
 * ```ts
 * import { PetStoreClient, PetStoreError } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * try {
 *   await client.listPets();
 * } catch (error) {
 *   if (error instanceof PetStoreError) console.error(error.name, error.message);
 * }
 * ```
 */
export class PetStoreError extends Error {
  /** The class's own name (`'PetStoreError'`, `'NotFoundError'`, ...), kept through minification. */
  override name:
    | 'PetStoreError'
    | APIError['name']
    | RefusedError['name']
    | APIConnectionError['name']
    | APIUserAbortError['name']
    | RequestValidationError['name']
    | ResponseValidationError['name']
    | RedirectError['name'] = 'PetStoreError';
  /**
   * Whether the request reached the service: `'no'` when the error came before anything was sent
   * (validation, the client's own refusals, an abort while the call waited), `'yes'` when a
   * response came back, `'maybe'` when an attempt was in flight and its outcome is unknown (a lost
   * connection, a timeout, an abort during the attempt): a create may then have happened.
   */
  declare readonly sent: RequestSent;

  constructor(message?: string, options?: ErrorOptions & { sent?: RequestSent | undefined }) {
    super(message, options);
    this.sent = options?.sent ?? 'no';
  }

  /** A plain object for logs and JSON: the error's name, message and its own public fields. */
  toJSON(): Record<string, unknown> {
    const { headers } = this as { headers?: unknown };
    // `name` is an own field, so the spread has it; `message` is not enumerable.
    return {
      ...(this as object),
      message: this.message,
      ...(headers instanceof Headers && { headers: Object.fromEntries(headers) }),
    };
  }
}

/**
 * Where the fields of an {@link APIError} come from; `statusText` makes the message when the body
 * is not the Error shape.
 *
 * @inline
 */
export interface APIErrorInit {
  status: number;
  headers: Headers;
  body: unknown;
  rateLimit: RateLimit | null;
  statusText?: string;
}

/**
 * The service answered with an error status. Subclasses name the common statuses; any other
 * status is an `APIError` itself.
 *
 * `code` and `message` come from the service's Error body. When the body is not that shape (a
 * proxy's HTML page, say), `code` is `http_<status>` and the raw body is kept in `body`.
 *
 * @example
 * ```ts
 * import { APIError, PetStoreClient } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * try {
 *   await client.createPet({ name: 'Rex', categoryId: 1 });
 * } catch (error) {
 *   if (error instanceof APIError) console.error(error.status, error.code, error.message, error.requestId);
 * }
 * ```
 */
export class APIError extends PetStoreError {
  override name:
    | 'APIError'
    | 'BadRequestError'
    | 'AuthenticationError'
    | 'PermissionDeniedError'
    | 'NotFoundError'
    | 'ConflictError'
    | 'UnprocessableEntityError'
    | 'RateLimitError'
    | 'InternalServerError' = 'APIError';
  /** The HTTP status of the response. */
  declare readonly status: number;
  /**
   * The machine-readable error code: the Error body's `code` (the service's own, such as
   * `rate_limited` or `not_found`); `http_<status>` when the body is not the Error shape.
   */
  declare readonly code: string;
  /** The response headers. */
  declare readonly headers: Headers;
  /** The response body: the Error shape when the service sent one, otherwise whatever arrived. */
  declare readonly body: unknown;
  /** The rate-limit reading of the response, if it carried one. */
  declare readonly rateLimit: RateLimit | null;
  /**
   * The service's id for the request, from the response's `X-Request-Id` (or `Request-Id`) header,
   * to quote to its support; `undefined` when the response carried none.
   */
  declare readonly requestId: string | undefined;

  constructor(init: APIErrorInit) {
    const { data } = ErrorBodySchema.safeParse(init.body);
    super(data?.message ?? `${init.status}${init.statusText ? ` ${init.statusText}` : ''}`, { sent: 'yes' });
    this.status = init.status;
    this.code = data?.code ?? `http_${init.status}`;
    this.headers = init.headers;
    this.body = init.body;
    this.rateLimit = init.rateLimit;
    this.requestId = readRequestId(init.headers);
  }
}

/**
 * 400: the request had missing or invalid fields.
 *
 * @example
 * ```ts
 * import { BadRequestError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof BadRequestError) console.error('Rejected:', error.message);
 * }
 * ```
 */
export class BadRequestError extends APIError {
  override name = 'BadRequestError' as const;
}

/**
 * 401: the API key is missing or invalid.
 *
 * @example
 * ```ts
 * import { AuthenticationError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof AuthenticationError) console.error('Check PETSTORE_API_KEY');
 * }
 * ```
 */
export class AuthenticationError extends APIError {
  override name = 'AuthenticationError' as const;
}

/**
 * 403: the API key is valid but may not do this.
 *
 * @example
 * ```ts
 * import { PermissionDeniedError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof PermissionDeniedError) console.error('Not allowed with this key:', error.message);
 * }
 * ```
 */
export class PermissionDeniedError extends APIError {
  override name = 'PermissionDeniedError' as const;
}

/**
 * 404: no such resource, such as no animal with the given id.
 *
 * @example
 * ```ts
 * import { NotFoundError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof NotFoundError) console.error('No such pet');
 * }
 * ```
 */
export class NotFoundError extends APIError {
  override name = 'NotFoundError' as const;
}

/**
 * 409: the request conflicts with the resource's current state.
 *
 * @example
 * ```ts
 * import { ConflictError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof ConflictError) console.error('Conflict:', error.message);
 * }
 * ```
 */
export class ConflictError extends APIError {
  override name = 'ConflictError' as const;
}

/**
 * 422: the request was well formed, but the service could not act on it.
 *
 * @example
 * ```ts
 * import { UnprocessableEntityError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof UnprocessableEntityError) console.error('Not processed:', error.message);
 * }
 * ```
 */
export class UnprocessableEntityError extends APIError {
  override name = 'UnprocessableEntityError' as const;
}

/**
 * 429: the service answered that the rate limit is exceeded, and the retries allowed are spent (or
 * its `Retry-After` was longer than `maxRetryAfter`). A call the client refused itself, before
 * sending it, is a {@link RefusedError}.
 *
 * @example
 * ```ts
 * import { RateLimitError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof RateLimitError) {
 *     console.error(`Rate limited; try again in ${error.retryAfterMs ?? 'an unknown number of'} ms`);
 *   }
 * }
 * ```
 */
export class RateLimitError extends APIError {
  override name = 'RateLimitError' as const;
  /** How long the service asked the caller to wait, in milliseconds, or `null` when it did not say. */
  declare readonly retryAfterMs: number | null;

  constructor(init: APIErrorInit & { retryAfterMs?: number | null | undefined }) {
    super(init);
    this.retryAfterMs = init.retryAfterMs ?? null;
  }
}

/**
 * 5xx: the service failed.
 *
 * @example
 * ```ts
 * import { InternalServerError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof InternalServerError) console.error(`The service failed with ${error.status}`);
 * }
 * ```
 */
export class InternalServerError extends APIError {
  override name = 'InternalServerError' as const;
}

/**
 * No response arrived: the connection was refused or reset, or the network is down.
 *
 * @example
 * ```ts
 * import { APIConnectionError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof APIConnectionError) console.error('Could not reach the service', error.cause);
 * }
 * ```
 */
export class APIConnectionError extends PetStoreError {
  override name: 'APIConnectionError' | 'APIConnectionTimeoutError' = 'APIConnectionError';
  /** The status of an answer whose body was cut short (the service was reached); else none. */
  declare readonly status?: number;

  constructor(
    message?: string,
    options?: ErrorOptions & { sent?: RequestSent | undefined; status?: number | undefined },
  ) {
    super(message, { sent: 'maybe', ...options });
    if (options?.status) this.status = options.status;
  }
}

/**
 * An attempt took longer than the `timeout` option allows.
 *
 * @example
 * ```ts
 * import { APIConnectionTimeoutError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof APIConnectionTimeoutError) console.error('The service is slow; try a longer timeout');
 * }
 * ```
 */
export class APIConnectionTimeoutError extends APIConnectionError {
  override name = 'APIConnectionTimeoutError' as const;
}

/**
 * The caller's `signal` aborted the call. `cause` is the signal's `reason`: what was given to
 * `controller.abort(reason)`, or the `DOMException` the runtime made.
 *
 * @example
 * ```ts
 * import { APIUserAbortError, PetStoreClient } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const controller = new AbortController();
 * const pending = client.listPets({}, { signal: controller.signal });
 * controller.abort();
 * await pending.catch((error) => error instanceof APIUserAbortError); // true
 * ```
 */
export class APIUserAbortError extends PetStoreError {
  override name = 'APIUserAbortError' as const;
}

/**
 * The client refused the call itself: nothing was sent (`sent` is `'no'`), and there is no status,
 * since the service said nothing. Its `code` says why:
 *
 * - `client_rate_limited`: the service asked for a wait (a 429's `Retry-After`, the window's reset,
 *   the day's quota) longer than `maxRetryAfter`.
 * - `client_queue_full`: `maxQueued` calls already wait.
 * - `client_deadline`: the call cannot start within its bound (`callTimeout` for its life,
 *   `maxQueueWait` for its waits in all): refused at once when the budget left, the reset and the
 *   calls ahead show it, or when the bound ends while it waits.
 * - `client_closed`: the client was closed ({@link PetStoreClient.close}). A call in flight
 *   aborted by `close({ abort: true })` may have reached the service (`sent` is `'maybe'`).
 *
 * @example
 * ```ts
 * import { PetStoreClient, RefusedError } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * try {
 *   await client.listPets();
 * } catch (error) {
 *   if (error instanceof RefusedError && error.code !== 'client_closed') {
 *     console.error(`Busy; try again in ${error.retryAfterMs ?? 1000} ms`);
 *   }
 * }
 * ```
 */
export class RefusedError extends PetStoreError {
  override name = 'RefusedError' as const;
  /** Why the client refused the call. */
  declare readonly code: 'client_rate_limited' | 'client_queue_full' | 'client_deadline' | 'client_closed';
  /**
   * How long to wait before trying again, in milliseconds (what a server may pass on as
   * `Retry-After`); `null` when nothing says (a closed client).
   */
  declare readonly retryAfterMs: number | null;

  constructor(
    code: RefusedError['code'],
    message: string,
    retryAfterMs: number | null = null,
    sent?: RequestSent,
  ) {
    super(message, { sent });
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/**
 * An argument failed validation before any request was sent.
 *
 * @example
 * ```ts
 * import { PetStoreClient, RequestValidationError } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * try {
 *   await client.listPets({ limit: 500 });
 * } catch (error) {
 *   if (error instanceof RequestValidationError) console.error(error.issues);
 * }
 * ```
 */
export class RequestValidationError extends PetStoreError {
  override name = 'RequestValidationError' as const;
  /** What was wrong: each issue's `message` and `path`, as Standard Schema reports them. */
  declare readonly issues: readonly StandardSchemaV1.Issue[];

  constructor(message: string, issues: readonly StandardSchemaV1.Issue[]) {
    super(message);
    this.issues = issues;
  }
}

/**
 * What a {@link ResponseValidationError} records of the response.
 *
 * @inline
 */
export interface ResponseInfo {
  status: number;
  headers: Headers;
}

/**
 * A successful response whose body does not have the documented shape (or, for
 * `client.request()`, the schema given).
 *
 * `body` and `text` differ where JSON parsing loses something (an id beyond 2^53 is exact only
 * in `text`); both have the API key replaced by `[redacted]`.
 *
 * @example
 * ```ts
 * import { ResponseValidationError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof ResponseValidationError) {
 *     console.error(error.status, error.requestId, error.issues, error.body, error.text);
 *   }
 * }
 * ```
 */
export class ResponseValidationError extends PetStoreError {
  override name: 'ResponseValidationError' | 'ResponseTooLargeError' = 'ResponseValidationError';
  /**
   * What was wrong, as Standard Schema reports it (each issue has a `message` and a `path`): the
   * model's schemas', or for `client.request()` the schema given. Empty when the body was not JSON.
   */
  declare readonly issues: readonly StandardSchemaV1.Issue[];
  /** The body as parsed: JSON, or the raw text when it was not JSON. */
  declare readonly body: unknown;
  /** The body's text exactly as received, before parsing; `undefined` when not given. */
  declare readonly text: string | undefined;
  /** The HTTP status of the response; `undefined` when not given. */
  declare readonly status: number | undefined;
  /** The response headers; empty when not given. */
  declare readonly headers: Headers;
  /**
   * The service's id for the request, from the response's `X-Request-Id` (or `Request-Id`) header;
   * `undefined` when the response carried none.
   */
  declare readonly requestId: string | undefined;

  constructor(
    message: string,
    issues: readonly StandardSchemaV1.Issue[],
    body: unknown,
    text?: string,
    response?: ResponseInfo,
  ) {
    super(message, { sent: 'yes' });
    this.issues = issues;
    this.body = body;
    this.text = text;
    this.status = response?.status;
    this.headers = response?.headers ?? new Headers();
    this.requestId = readRequestId(this.headers);
  }
}

/**
 * A successful response whose body is larger than the `maxResponseBytes` option allows (counted
 * after decompression): the client stopped reading it there, so `body` and `text` are `undefined`.
 * An error status whose body is that large fails with its own {@link APIError}, `body` undefined.
 *
 * @example
 * ```ts
 * import { ResponseTooLargeError } from 'animal-store-sdk';
 *
 * function explain(error: unknown) {
 *   if (error instanceof ResponseTooLargeError) console.error(error.status, error.message);
 * }
 * ```
 */
export class ResponseTooLargeError extends ResponseValidationError {
  override name = 'ResponseTooLargeError' as const;
}

/**
 * The service answered with a redirect the client does not follow: one that leaves the base URL
 * (another origin, or a path outside it), one past the fifth, or any redirect when `fetchOptions`
 * say `redirect: 'error'`. Nothing was sent where it pointed. (In a browser, which hides where a
 * redirect points, the browser refuses every redirect itself: the call fails with an
 * {@link APIConnectionError}.)
 *
 * @example
 * ```ts
 * import { PetStoreClient, RedirectError } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * try {
 *   await client.listPets();
 * } catch (error) {
 *   if (error instanceof RedirectError) console.error(error.status, error.location);
 * }
 * ```
 */
export class RedirectError extends PetStoreError {
  override name = 'RedirectError' as const;
  /** The redirect's status: 301, 302, 303, 307 or 308. */
  declare readonly status: number;
  /** Where the redirect pointed, the API key redacted. */
  declare readonly location: string;

  constructor(message: string, status: number, location: string) {
    super(message, { sent: 'yes' });
    this.status = status;
    this.location = location;
  }
}

/** The statuses with a class of their own; any other 5xx is an `InternalServerError`. */
const STATUS_CLASSES: Record<number, new (init: APIErrorInit) => APIError> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  422: UnprocessableEntityError,
  429: RateLimitError,
};

/** The error for a failed response: the class of its status, else an `APIError`. */
export function generateAPIError(
  init: APIErrorInit & { retryAfterMs?: number | null | undefined },
): APIError {
  const ErrorClass = STATUS_CLASSES[init.status] ?? (init.status >= 500 ? InternalServerError : APIError);
  return new ErrorClass(init);
}
