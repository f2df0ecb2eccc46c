/**
 * The English message of a validation issue, from its code, in zod's English locale's words: the
 * model's schemas carry it as their own `error`, since zod/mini has no messages until `z.config()`,
 * which a library must never call.
 *
 * @module
 */
import type * as z from 'zod/mini';

/** What a value is, in an issue's words: `number`, `string`, `null`, `array`, `NaN`, `object`, ... */
function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  return typeof input === 'number' && !Number.isFinite(input) ? String(input) : typeof input;
}

/** Strings in double quotes, as zod quotes them. */
const quote = (value: unknown) => JSON.stringify(value);

/** The message for an issue: `Too big: expected number to be <=100`. */
export function issueMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return `Invalid input: expected ${issue.expected}, received ${received(issue.input)}`;
    // Every enum of the SDK has several values, so the one-value wording of zod is not needed.
    case 'invalid_value':
      return `Invalid option: expected one of ${issue.values.map(quote).join('|')}`;
    case 'too_big':
    case 'too_small': {
      const big = issue.code === 'too_big';
      return `Too ${big ? 'big' : 'small'}: expected ${issue.origin} to be ${big ? '<' : '>'}${issue.inclusive ? '=' : ''}${big ? issue.maximum : issue.minimum}`;
    }
    case 'unrecognized_keys':
      return `Unrecognized key${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map(quote).join(', ')}`;
    default:
      return 'Invalid input';
  }
}

/** The `error` parameter every schema of the model is built with. */
export const SDK_MESSAGES = { error: issueMessage } as const;
