/**
 * Checking arguments before anything is sent: the model's with its zod schemas; options and raw
 * requests field by field, with zod/mini's scalar schemas where one fits, each problem an issue with
 * the message zod's would have (zod/mini's object and union machinery would weigh more in a browser).
 *
 * @module
 */
import type * as z from 'zod/mini';
import { RequestValidationError } from '../errors.js';
import { issueMessage } from '../shared/issue-message.js';
import { checkNames } from '../shared/option-names.js';
import type { StandardSchemaV1 } from './standard-schema.js';

/** One problem with an argument, as zod reports it. */
export type Issue = z.core.$ZodIssue;

/** What a check found wrong: an issue's message. */
export type Finding = string;

function pathKey(segment: PropertyKey | StandardSchemaV1.PathSegment): string {
  return String(typeof segment === 'object' ? segment.key : segment);
}

/** A one-line summary of issues: `limit: Too big: expected number to be <=100; ...`. */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  const shown = issues
    .slice(0, 5)
    .map((issue) =>
      issue.path?.length ? `${issue.path.map(pathKey).join('.')}: ${issue.message}` : issue.message,
    );
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/** Parses `value` with `schema`, or throws a {@link RequestValidationError} naming the operation. */
export function validate<S extends z.ZodMiniType>(
  operation: string,
  what: string,
  schema: S,
  value: unknown,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw invalid(operation, what, result.error.issues);
}

export function invalid(operation: string, what: string, issues: Issue[]): RequestValidationError {
  return new RequestValidationError(`Invalid ${what} for ${operation}: ${describeIssues(issues)}`, issues);
}

/** Records what a check found in `problems` at `path`, about `input`. */
export function addProblem(
  problems: Issue[],
  path: PropertyKey[],
  found: Finding | undefined,
  input?: unknown,
): void {
  if (found !== undefined) problems.push({ code: 'custom', input, path, message: found });
}

/** `input` is not of the type `expected` (`number`, `int`, `object`, ...). */
export const wrongType = (expected: string, input: unknown): Finding =>
  issueMessage({ code: 'invalid_type', expected, input } as z.core.$ZodRawIssue);

/** The message of what `schema` finds wrong with `value`: its last issue, which for `z.int()` with bounds is the option's own bound rather than the safe-integer range. */
export function schemaFinding(schema: z.ZodMiniType, value: unknown): Finding | undefined {
  return schema.safeParse(value).error?.issues.at(-1)?.message;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of `value`, whose keys must all be `known` (else a `TypeError` naming the `what`:
 * `request option`); a value that is no object is recorded in `problems` and has none.
 */
export function objectFields(
  value: unknown,
  known: readonly string[],
  problems: Issue[],
  what: string,
): Record<string, unknown> {
  if (!isRecord(value)) {
    addProblem(problems, [], wrongType('object', value));
    return {};
  }
  checkNames(what, value, known);
  return value;
}
