/**
 * src/core/validate.ts written with zod/mini, to weigh what the switch would save. Only the
 * bundle-size comparison uses it.
 *
 * @module
 */
import * as z from 'zod/mini';
import { MAX_TIMER_MS } from '../../../src/core/options.js';
import type { RequestOptions } from '../../../src/core/transport.js';
import { RequestValidationError } from '../../../src/errors.js';

const headerName = /^[!#$%&'*+.^`|~\w-]+$/;
const headerValue = /^[^\r\n\0]*$/;

const RequestOptionsSchema = z.strictObject({
  signal: z.optional(
    z.custom<AbortSignal>((value) => value instanceof AbortSignal, 'Expected an AbortSignal'),
  ),
  timeout: z.optional(z.int().check(z.minimum(1), z.maximum(MAX_TIMER_MS))),
  maxRetries: z.optional(z.int().check(z.minimum(0), z.maximum(10))),
  headers: z.optional(
    z.record(
      z.string().check(z.regex(headerName, 'Invalid header name')),
      z.string().check(z.regex(headerValue)),
    ),
  ),
});

export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const shown = issues.slice(0, 5).map((issue) => {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : 'value';
    return `${path}: ${issue.message}`;
  });
  if (issues.length > shown.length) shown.push(`and ${issues.length - shown.length} more`);
  return shown.join('; ');
}

export function validate<S extends z.ZodMiniType>(
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

export function validateRequestOptions(operation: string, options: unknown): RequestOptions {
  return validate(operation, 'request options', RequestOptionsSchema, options ?? {});
}
