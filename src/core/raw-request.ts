/**
 * `client.request()`: a request to an endpoint the SDK does not model, checked before it is sent.
 *
 * @module
 */
import * as z from 'zod/mini';
import { SDK_MESSAGES } from '../shared/issue-message.js';
import type { ApiKey } from './api-key.js';
import type { RequestSpec } from './call.js';
import { headerEntries } from './headers.js';
import { endpoint, pathProblem } from './request/request-path.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { HeadersInput, HttpMethod, QueryValue } from './types.js';
import {
  addProblem,
  type Issue,
  invalid,
  isRecord,
  objectFields,
  schemaFinding,
  wrongType,
} from './validate.js';

/**
 * A request to an endpoint the SDK does not model, for {@link PetStoreClient.request}.
 *
 * @inline
 */
export interface RawRequest<S extends StandardSchemaV1 = StandardSchemaV1> {
  /** The HTTP method, upper case. */
  method: HttpMethod;
  /**
   * The path relative to the base URL, such as `/store/orders` (the leading `/` is optional). An
   * absolute or protocol-relative URL, a backslash, a `?` or `#`, a `.` or `..` segment (even
   * percent-encoded) or an encoded `/` or `\` is refused with a `RequestValidationError`. An encoded
   * `?` or `#` (`%3F`, `%23`) is sent as written, a character of the path under the base URL.
   */
  path: string;
  /** Query parameters: an array repeats the parameter; `undefined` leaves it out. */
  query?: Record<string, QueryValue> | undefined;
  /** A JSON body, sent with `Content-Type: application/json`. Not allowed for GET and HEAD. */
  body?: unknown;
  /**
   * Headers for this request, as `fetch` takes them; the client's own (`Authorization`, `Accept`,
   * ...) and any `fetch` would refuse are refused.
   */
  headers?: HeadersInput | undefined;
  /**
   * A schema for the response body: any Standard Schema (zod, zod/mini, valibot, arktype, ...).
   * The result is its output type, and a body it rejects is a `ResponseValidationError` with its
   * issues. Without one the result is `unknown`: the parsed JSON when the response says it is
   * JSON, the text otherwise, `undefined` when there is no body.
   */
  schema?: S | undefined;
}

const METHOD = z.enum(
  ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] satisfies HttpMethod[],
  SDK_MESSAGES,
);

const FIELDS = ['method', 'path', 'query', 'body', 'headers', 'schema'];

const isScalar = (value: unknown) => ['string', 'number', 'boolean'].includes(typeof value);

// By shape, not instanceof: the application's schema library is its own copy.
function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  const props = (value as Partial<StandardSchemaV1> | null | undefined)?.['~standard'];
  return props?.version === 1 && typeof props.validate === 'function';
}

function bodyProblem(method: unknown, body: unknown): string | undefined {
  if (body === undefined) return undefined;
  if (method === 'GET' || method === 'HEAD') return `A ${method} request cannot carry a body`;
  try {
    return JSON.stringify(body) === undefined ? 'Cannot be sent as JSON' : undefined;
  } catch (error) {
    return `Cannot be sent as JSON: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/**
 * Checks a raw request and describes it for the transport, or throws a {@link RequestValidationError};
 * what the caller wrote may hold the key, so its path and the issues' inputs are redacted.
 */
export function describeRawRequest<T>(spec: RawRequest, apiKey: Pick<ApiKey, 'redact'>): RequestSpec<T> {
  const problems: Issue[] = [];
  const { method, path, query, body, headers, schema } = objectFields(
    spec,
    FIELDS,
    problems,
    'request() field',
  );
  const relative = typeof path === 'string' ? path.replace(/^\//, '') : '';
  addProblem(problems, ['method'], schemaFinding(METHOD, method), method);
  addProblem(
    problems,
    ['path'],
    typeof path === 'string' ? pathProblem(path) : wrongType('string', path),
    path,
  );
  if (isRecord(query)) {
    for (const [name, value] of Object.entries(query)) {
      if (value !== undefined && ![value].flat().every(isScalar)) {
        addProblem(
          problems,
          ['query', name],
          'Expected a string, number or boolean, or an array of them',
          value,
        );
      }
    }
  } else if (query !== undefined) addProblem(problems, ['query'], wrongType('record', query), query);
  addProblem(problems, ['body'], bodyProblem(method, body), body);
  const entries = headers === undefined ? undefined : headerEntries(headers, ['headers'], problems);
  if (schema !== undefined && !isStandardSchema(schema)) {
    addProblem(problems, ['schema'], 'Expected a Standard Schema', schema);
  }
  if (problems.length > 0) {
    for (const issue of problems) (issue as { input: unknown }).input = apiKey.redact(issue.input);
    throw invalid('request', 'request', problems);
  }
  const shownPath = apiKey.redact(relative);
  return {
    operation: `${method} ${endpoint(shownPath)}`,
    method: method as HttpMethod,
    path: relative,
    shownPath,
    query: query as Record<string, QueryValue> | undefined,
    json: body,
    headers: entries,
    schema: schema as StandardSchemaV1<unknown, T> | undefined,
    decode: 'content-type',
  };
}
