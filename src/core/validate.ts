/**
 * Checking arguments with a zod schema before anything is sent, and saying what is wrong in one line.
 *
 * @module
 */
import type * as z from 'zod';
import { RequestValidationError } from '../errors.js';

/** A one-line summary of zod issues: `limit: Too big: expected number to be <=100; ...`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : 'value';
    return `${path}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

/**
 * Parses `value` with `schema`, or throws a {@link RequestValidationError} that names the
 * operation and every problem.
 */
export function validate<S extends z.ZodType>(
  operation: string,
  what: string,
  schema: S,
  value: unknown,
): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw new RequestValidationError(
    `Invalid ${what} for ${operation}: ${describeIssues(result.error.issues)}`,
    result.error.issues,
  );
}
