/**
 * Checking arguments before anything is sent, and saying what is wrong in one line: the model's
 * arguments with its zod schemas, options and raw requests with plain checks that report their
 * problems as zod issues with the same messages.
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

/** An issue before it has a path and a message: what a check found. */
export type Finding = Omit<z.core.$ZodRawIssue, 'path' | 'message'>;

/** A path step as a Standard Schema library may give it: a key, or an object holding one. */
function pathKey(segment: PropertyKey | StandardSchemaV1.PathSegment): string {
  return String(typeof segment === 'object' ? segment.key : segment);
}

/**
 * A one-line summary of issues: `limit: Too big: expected number to be <=100; ...`; an issue with the
 * whole value is its message alone.
 */
export function describeIssues(issues: readonly StandardSchemaV1.Issue[]): string {
  const shown = issues
    .slice(0, 5)
    .map((issue) =>
      issue.path?.length ? `${issue.path.map(pathKey).join('.')}: ${issue.message}` : issue.message,
    );
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/**
 * Parses `value` with `schema`, or throws a {@link RequestValidationError} that names the
 * operation and every problem.
 */
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

/** The error for arguments with these problems. */
export function invalid(operation: string, what: string, issues: Issue[]): RequestValidationError {
  return new RequestValidationError(`Invalid ${what} for ${operation}: ${describeIssues(issues)}`, issues);
}

/**
 * Records in `problems` at `path` what a check found, as a zod issue with the SDK's message: an
 * issue, or a message of its own for a problem no issue code describes (about `input`); nothing
 * when it found nothing. Options and raw requests are checked by hand rather than by schemas: the
 * checks are a few lines each, and a schema library's object, union and transform machinery would
 * weigh more in a browser bundle than all of them.
 */
export function addProblem(
  problems: Issue[],
  path: PropertyKey[],
  found: Finding | string | undefined,
  input?: unknown,
): void {
  if (found === undefined) return;
  problems.push(
    (typeof found === 'string'
      ? { code: 'custom', input, path, message: found }
      : { ...found, path, message: issueMessage(found as z.core.$ZodRawIssue) }) as Issue,
  );
}

/** `value` is not of the type `expected` (`number`, `int`, `object`, ...). */
export const wrongType = (expected: string, input: unknown) =>
  ({ code: 'invalid_type', expected, input }) as Finding;

/** Why `value` is not an integer from `min` to `max`, or `undefined`. */
export function integerFinding(value: unknown, min: number, max: number): Finding | undefined {
  if (!Number.isInteger(value)) return wrongType(typeof value === 'number' ? 'int' : 'number', value);
  const bound = { origin: 'number', inclusive: true, input: value } as const;
  if ((value as number) < min) return { code: 'too_small', minimum: min, ...bound };
  if ((value as number) > max) return { code: 'too_big', maximum: max, ...bound };
  return undefined;
}

/** Why `value` is not one of `values`, or `undefined`. */
export function oneOfFinding(value: unknown, values: readonly string[]): Finding | undefined {
  return values.includes(value as string)
    ? undefined
    : { code: 'invalid_value', values: [...values], input: value };
}

/** Why `value` is not of the JavaScript type `type`, or `undefined`. */
export function typeFinding(value: unknown, type: 'boolean' | 'string'): Finding | undefined {
  return typeof value === type ? undefined : wrongType(type, value);
}

/** Whether `value` is a plain object of named values (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields of `value`, an object whose keys are all `known` (an unknown one is a `TypeError` naming
 * it, `what` saying what it is: `request option`); a value that is no object has no fields, and is
 * recorded in `problems`.
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
