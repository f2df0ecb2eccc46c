/**
 * Turning a successful response's body into the call's data: JSON (or text) validated by the call's
 * schema (the model's, or any Standard Schema given to `client.request()`), or a
 * `ResponseValidationError` that shows what arrived.
 *
 * @module
 */
import { ResponseValidationError } from '../../errors.js';
import type { StandardSchemaV1 } from '../standard-schema.js';
import { describeIssues } from '../validate.js';

/**
 * How a successful body becomes data: `json` requires JSON; `content-type` reads JSON when the
 * response says it is JSON, the text otherwise, and `undefined` for no body.
 */
export type DecodeMode = 'json' | 'content-type';

/**
 * Parses the body's text (read in full by the attempt; none when the response had no body) and
 * validates it with the schema, or throws a {@link ResponseValidationError} that names the request
 * (`where`: `GET /pets`) and holds what arrived, the API key kept out by `redact`. A schema that
 * validates asynchronously makes the result a promise.
 */
export function decodeData<T>(
  where: string,
  schema: StandardSchemaV1<unknown, T> | undefined,
  mode: DecodeMode,
  text: string | undefined,
  response: Response,
  redact: <V>(value: V) => V,
): T | Promise<T> {
  const seen = () => ({ status: response.status, headers: redact(response.headers) });
  // Without a body, or with one that is not JSON, `content-type` takes it as it is.
  let json: unknown = text || undefined;
  text ??= '';
  if (mode === 'json' || (json !== undefined && isJson(response.headers))) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(
        `The response to ${where} is not valid JSON.`,
        [],
        redact(text),
        redact(text),
        seen(),
      );
    }
  }
  const outcome = (result: StandardSchemaV1.Result<T>): T => {
    if (result.issues === undefined) return result.value;
    const issues = redact([...result.issues]);
    throw new ResponseValidationError(
      `The response to ${where} does not match its schema: ${describeIssues(issues)}`,
      issues,
      redact(json),
      redact(text),
      seen(),
    );
  };
  // Without a schema the body is taken as it is.
  const result = schema ? schema['~standard'].validate(json) : { value: json as T };
  return result instanceof Promise ? result.then(outcome) : outcome(result);
}

/** Whether a response says its body is JSON: `application/json` or a `+json` type. */
function isJson(headers: Headers): boolean {
  const type = headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  return /^application\/json$|\+json$/i.test(type);
}
