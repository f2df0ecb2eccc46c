/**
 * `client.request()`: a request to an endpoint the SDK does not model, checked before it is sent.
 *
 * @module
 */
import { RequestValidationError } from '../errors.js';
import { type HeaderEntries, headerEntries } from './headers.js';
import { endpoint, pathProblem, staysUnder } from './request/request-path.js';
import { HTTP_METHODS } from './request/retry.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { RequestSpec } from './transport.js';
import type { HttpMethod, QueryValue } from './types.js';
import {
  addProblem,
  type Issue,
  invalid as invalidArguments,
  isRecord,
  oneOfFinding,
  typeFinding,
  unknownKeys,
} from './validate.js';

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
export interface RawRequest<S extends StandardSchemaV1 = StandardSchemaV1> {
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
   * A schema for the response body: any Standard Schema (zod, zod/mini, valibot, arktype, ...).
   * The result is its output type, and a body it rejects is a `ResponseValidationError` with its
   * issues. Without one the result is `unknown`: the parsed JSON when the response says it is
   * JSON, the text otherwise, `undefined` when there is no body.
   */
  schema?: S | undefined;
}

/** The fields of a raw request; any other is refused. */
const FIELDS = ['method', 'path', 'query', 'body', 'headers', 'schema'];

const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

/** Whether `value` implements Standard Schema v1. By shape: the application's zod is its own copy. */
function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as Partial<StandardSchemaV1> | null | undefined)?.['~standard'];
  return props?.version === 1 && typeof props.validate === 'function';
}

/** A raw request whose every field passed its check. */
interface CheckedRequest {
  readonly method: HttpMethod;
  readonly path: string;
  readonly query: Record<string, QueryValue> | undefined;
  readonly body: unknown;
  readonly headers: HeaderEntries | undefined;
  readonly schema: StandardSchemaV1 | undefined;
}

/** Whether a query parameter's value cannot be sent. */
function queryValueProblem(value: unknown): boolean {
  return !(value === undefined || isScalar(value) || (Array.isArray(value) && value.every(isScalar)));
}

/** Checks every field of a raw request, or throws one error naming every problem. */
function check(spec: unknown): CheckedRequest {
  const problems: Issue[] = [];
  const fields = isRecord(spec) ? spec : {};
  if (!isRecord(spec)) addProblem(problems, [], { code: 'invalid_type', expected: 'object', input: spec });
  else unknownKeys(spec, FIELDS, problems);
  const { method, path, query, headers, schema } = fields;
  addProblem(problems, ['method'], oneOfFinding(method, HTTP_METHODS));
  const pathProblemFound = typeof path === 'string' ? pathProblem(path) : undefined;
  addProblem(
    problems,
    ['path'],
    typeFinding(path, 'string') ?? (pathProblemFound && `The path ${pathProblemFound}`),
    path,
  );
  if (query !== undefined && !isRecord(query)) {
    addProblem(problems, ['query'], { code: 'invalid_type', expected: 'record', input: query });
  } else {
    for (const [name, value] of Object.entries(query ?? {})) {
      if (queryValueProblem(value)) {
        addProblem(
          problems,
          ['query', name],
          'Expected a string, number or boolean, or an array of them',
          value,
        );
      }
    }
  }
  const entries = headers === undefined ? undefined : headerEntries(headers, ['headers'], problems);
  if (schema !== undefined && !isStandardSchema(schema)) {
    addProblem(problems, ['schema'], 'Expected a Standard Schema (zod, valibot, arktype, ...)', schema);
  }
  if (problems.length > 0) throw invalidArguments('request', 'request', problems);
  return { ...fields, headers: entries } as CheckedRequest;
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
  const problems: Issue[] = [];
  addProblem(problems, [], message);
  throw new RequestValidationError(`Invalid request: ${message}`, problems);
}

/** Checks a raw request and describes it for the transport, or throws a {@link RequestValidationError}. */
export function describeRawRequest<T>(spec: RawRequest, baseUrl: string): RequestSpec<T> {
  const { method, path, query, body, headers, schema } = check(spec);
  const relative = path.replace(/^\//, '');
  // The path rules above are the contract; this second look asks the URL parser itself.
  if (!staysUnder(baseUrl, relative)) invalid(`the path "${path}" leaves the base URL`);
  if (body !== undefined) {
    if (method === 'GET' || method === 'HEAD') invalid(`a ${method} request cannot carry a body`);
    const problem = jsonProblem(body);
    if (problem !== undefined) invalid(problem);
  }
  return {
    operation: `${method} ${endpoint(relative)}`,
    method,
    path: relative,
    query,
    json: body,
    headers,
    schema: schema as StandardSchemaV1<unknown, T> | undefined,
    decode: 'content-type',
  };
}
