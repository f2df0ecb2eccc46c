/**
 * `client.request()`: a request to an endpoint the SDK does not model, checked before it is sent.
 *
 * @module
 */
import * as z from 'zod';
import { RequestValidationError } from '../errors.js';
import { HeadersSchema } from './headers.js';
import { pathProblem, urlUnder } from './request-path.js';
import type { RequestSpec } from './transport.js';
import type { HttpMethod, QueryValue } from './types.js';
import { validate } from './validate.js';

/**
 * A request to an endpoint the SDK does not model, for {@link PetStoreClient.request}.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type RawRequest } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const spec: RawRequest = { method: 'GET', path: '/store/orders', query: { limit: 10 } };
 * const orders: unknown = await client.request(spec);
 * ```
 */
export interface RawRequest<S extends z.ZodType = z.ZodType> {
  /** The HTTP method, upper case. */
  method: HttpMethod;
  /**
   * The path relative to the base URL, such as `/store/orders` (the leading `/` is optional). An
   * absolute or protocol-relative URL, a backslash, a `?` or `#`, a `.` or `..` segment (even
   * percent-encoded) or an encoded `/` is refused with a `RequestValidationError`.
   */
  path: string;
  /** Query parameters: an array repeats the parameter; `undefined` leaves it out. */
  query?: Record<string, QueryValue> | undefined;
  /** A JSON body, sent with `Content-Type: application/json`. Not allowed for GET and HEAD. */
  body?: unknown;
  /** Headers for this request; the client's own (`Authorization`, `Accept`, ...) are refused. */
  headers?: Record<string, string> | undefined;
  /**
   * A zod schema for the response body. Without one the result is `unknown`: the parsed JSON
   * when the response says it is JSON, the text otherwise, `undefined` when there is no body.
   */
  schema?: S | undefined;
}

const Scalar = z.union([z.string(), z.number(), z.boolean()]);

const RawRequestSchema = z.strictObject({
  method: z.enum(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']),
  path: z.string().superRefine((path, ctx) => {
    const problem = pathProblem(path);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: `The path ${problem}` });
  }),
  query: z.record(z.string(), z.union([Scalar, z.array(Scalar), z.undefined()])).optional(),
  body: z.unknown().optional(),
  headers: HeadersSchema.optional(),
  // By shape rather than instanceof: the application's zod may be another copy than the SDK's.
  schema: z
    .custom<z.ZodType>(
      (value) => typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function',
      'Expected a zod schema',
    )
    .optional(),
});

/**
 * `/pets/{id}`: the path with numeric segments folded, so warnings, waits and traces name an
 * endpoint, not a record.
 */
export function endpoint(path: string): string {
  return `/${path}`.replace(/\/\d+(?=\/|$)/g, '/{id}');
}

/** A JSON body as text, or the reason it cannot be one. */
function jsonProblem(body: unknown): string | undefined {
  try {
    return JSON.stringify(body) === undefined ? 'The body cannot be sent as JSON' : undefined;
  } catch (error) {
    return `The body cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

function invalid(message: string): never {
  throw new RequestValidationError(`Invalid request: ${message}`, [
    { code: 'custom', message, path: [], input: undefined },
  ]);
}

/** Checks a raw request and describes it for the transport, or throws a {@link RequestValidationError}. */
export function describeRawRequest<T>(spec: RawRequest, baseUrl: string): RequestSpec<T> {
  const checked = validate('request', 'request', RawRequestSchema, spec);
  const path = checked.path.startsWith('/') ? checked.path.slice(1) : checked.path;
  // The path rules above are the contract; this second look asks the URL parser itself.
  if (urlUnder(baseUrl, path) === undefined) invalid(`the path "${checked.path}" leaves the base URL`);
  if (checked.body !== undefined) {
    if (checked.method === 'GET' || checked.method === 'HEAD')
      invalid(`a ${checked.method} request cannot carry a body`);
    const problem = jsonProblem(checked.body);
    if (problem !== undefined) invalid(problem);
  }
  return {
    operation: `${checked.method} ${endpoint(path)}`,
    method: checked.method,
    path,
    ...(checked.query !== undefined && { query: checked.query }),
    ...(checked.body !== undefined && { json: checked.body }),
    ...(checked.headers !== undefined && { headers: checked.headers }),
    schema: (checked.schema ?? z.unknown()) as z.ZodType<T>,
    decode: 'content-type',
  };
}
