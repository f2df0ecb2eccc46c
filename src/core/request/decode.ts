/**
 * A successful response's body into the call's data: JSON (or text) validated by the call's schema,
 * or a `ResponseValidationError` that shows what arrived.
 *
 * @module
 */
import { ResponseTooLargeError, ResponseValidationError } from '../../errors.js';
import type { StandardSchemaV1 } from '../standard-schema.js';
import { describeIssues } from '../validate.js';

/** `json` requires JSON; `content-type` reads JSON when the response says so, else the text or `undefined`. */
export type DecodeMode = 'json' | 'content-type';

export interface DecodingCall {
  /** `GET /pets`, for messages. */
  readonly where: string;
  /** How the body becomes data (default `json`); what a create adds when the service acted on it. */
  readonly spec: { readonly decode?: DecodeMode | undefined; readonly ifUnknown?: string | undefined };
  /** The body's text; none when the response had no body. */
  readonly body?: string | undefined;
  readonly redact: <V>(value: V) => V;
}

/** `The response to GET /pets <problem>`, then what a create adds. */
const about = ({ where, spec }: DecodingCall, problem: string) =>
  `The response to ${where} ${problem}${spec.ifUnknown ? ` ${spec.ifUnknown}` : ''}`;

const seen = (call: DecodingCall, response: Response) => ({
  status: response.status,
  headers: call.redact(response.headers),
});

export const tooLarge = (call: DecodingCall, response: Response, limit: number) =>
  new ResponseTooLargeError(
    about(call, `is larger than maxResponseBytes (${limit} B).`),
    [],
    undefined,
    undefined,
    seen(call, response),
  );

/**
 * Parses the body's text and validates it with the schema (a promise when the schema validates
 * asynchronously), or throws a {@link ResponseValidationError} holding what arrived, redacted.
 */
export function decodeData<T>(
  call: DecodingCall,
  schema: StandardSchemaV1<unknown, T> | undefined,
  response: Response,
): T | Promise<T> {
  const { redact } = call;
  const text = call.body ?? '';
  // Without a body, or with one that is not JSON, `content-type` takes it as it is.
  let json: unknown = text || undefined;
  if (call.spec.decode !== 'content-type' || (json !== undefined && isJson(response.headers))) {
    try {
      json = JSON.parse(text);
    } catch {
      throw new ResponseValidationError(
        about(call, 'is not valid JSON.'),
        [],
        redact(text),
        redact(text),
        seen(call, response),
      );
    }
  }
  const outcome = (result: StandardSchemaV1.Result<T>): T => {
    if (result.issues === undefined) return result.value;
    const issues = redact([...result.issues]);
    throw new ResponseValidationError(
      about(call, `does not match its schema: ${describeIssues(issues)}`),
      issues,
      redact(json),
      redact(text),
      seen(call, response),
    );
  };
  const result = schema ? schema['~standard'].validate(json) : { value: json as T };
  return result instanceof Promise ? result.then(outcome) : outcome(result);
}

function isJson(headers: Headers): boolean {
  const type = headers.get('content-type')?.split(';')[0]?.trim() ?? '';
  return /^application\/json$|\+json$/i.test(type);
}
