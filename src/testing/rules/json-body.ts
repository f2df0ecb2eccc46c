/**
 * A request's JSON body checked against a zod schema (classic or mini), or the 400 that says what is wrong with it: the
 * one reading of a JSON body, for `POST /pets` and for the control API.
 *
 * @module
 */
import * as z from 'zod/mini';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './request-body.js';
import { ERROR_CODES, errorReply, type JsonReply } from './responses.js';

/** Whether a `Content-Type` says JSON: `application/json`, in any case, with any parameters. */
export function isJsonContentType(contentType: string | null): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** The body as the schema parsed it, or the 400 `invalid_body` or `invalid_json` that answers it. */
export type JsonBody<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly reply: JsonReply };

/**
 * Parses `text` (read as UTF-8; `utf8` says whether it was valid) as JSON and checks it with `schema`.
 * `name` names the expected value in messages: `NewPet`, `fault`.
 */
export function parseJsonBody<Schema extends z.core.$ZodType>(
  text: string,
  utf8: boolean,
  schema: Schema,
  name: string,
): JsonBody<z.output<Schema>> {
  const refuse = (code: string, message: string) => ({
    ok: false as const,
    reply: errorReply(400, code, message),
  });
  if (text.trim() === '')
    return refuse(ERROR_CODES.invalidBody, `The request body is required: a ${name} as JSON`);
  if (!utf8) return refuse(ERROR_CODES.invalidJson, 'The request body is not valid UTF-8');
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
    return refuse(ERROR_CODES.invalidJson, `The request body nests deeper than ${MAX_JSON_DEPTH} levels`);
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return refuse(ERROR_CODES.invalidJson, `The request body is not valid JSON: ${reason}`);
  }
  const parsed = z.safeParse(schema, body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const problems = parsed.error.issues.map((issue) => describeIssue(issue, body));
  return refuse(ERROR_CODES.invalidBody, `The request body is not a valid ${name}: ${problems.join('; ')}`);
}

/** A zod issue as `field: problem`, saying "is required" for a missing field. */
function describeIssue(issue: z.core.$ZodIssue, body: unknown): string {
  const field = issue.path.join('.');
  if (field === '') return issue.message;
  const present = pathExists(body, issue.path);
  return present ? `${field}: ${issue.message}` : `${field} is required`;
}

function pathExists(value: unknown, path: readonly PropertyKey[]): boolean {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null || !(key in current)) return false;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return true;
}
