/**
 * The English message of a validation issue, from its code, in zod's English locale's words: the
 * model's schemas carry it as their own `error`, since zod/mini has no messages until `z.config()`,
 * which a library must never call.
 *
 * @module
 */
import type * as z from 'zod/mini';

/** What a value is, in an issue's words: `number`, `string`, `null`, `array`, `NaN`, or its class. */
function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isFinite(input)) return String(input);
  const name = typeof input === 'object' && (Object.getPrototypeOf(input) as object | null)?.constructor.name;
  return name && name !== 'Object' ? name : typeof input;
}

/** A value as an issue quotes it: strings in double quotes, everything else as written. */
function quote(value: unknown): string {
  return typeof value === 'string' ? `"${value}"` : String(value);
}

/** The message for an issue: `Too big: expected number to be <=100`. */
export function issueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${received(issue.input)}`;
    case 'invalid_value':
      return issue.values.length === 1
        ? `Invalid input: expected ${quote(issue.values[0])}`
        : `Invalid option: expected one of ${issue.values.map(quote).join('|')}`;
    case 'too_big':
      return `Too big: expected ${issue.origin ?? 'value'} to be ${issue.inclusive ? '<=' : '<'}${issue.maximum}`;
    case 'too_small':
      return `Too small: expected ${issue.origin ?? 'value'} to be ${issue.inclusive ? '>=' : '>'}${issue.minimum}`;
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map(quote).join(', ')}`;
    default:
      return 'Invalid input';
  }
}

/** The `error` parameter every schema of the model is built with. */
export const SDK_MESSAGES = { error: issueMessage } as const;
