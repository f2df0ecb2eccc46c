/**
 * Checking a call's arguments before anything is sent.
 *
 * @module
 */
import * as z from 'zod';
import { RequestValidationError } from '../errors.js';
import { HeadersSchema } from './headers.js';
import { MAX_TIMER_MS } from './options.js';

const RequestOptionsSchema = z.strictObject({
  signal: z
    .custom<AbortSignal>((value) => value instanceof AbortSignal, 'Expected an AbortSignal')
    .optional(),
  timeout: z.int().min(1).max(MAX_TIMER_MS).optional(),
  maxRetries: z.int().min(0).max(10).optional(),
  headers: HeadersSchema.optional(),
});

/** Per-call options after validation, their headers as entries. */
export type CallOptions = z.output<typeof RequestOptionsSchema>;

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

/** Checks the per-call options. */
export function validateRequestOptions(operation: string, options: unknown): CallOptions {
  return validate(operation, 'request options', RequestOptionsSchema, options ?? {});
}
