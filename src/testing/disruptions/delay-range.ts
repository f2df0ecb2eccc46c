/**
 * The one range every delay the fake is asked for must fall in (`Prefer: delay`, a fault's `delayMs`,
 * chaos's delays): whole milliseconds from 0 to `fakePetStoreConstants.maxDelayMs`, so that no input sets a timer
 * Node cannot hold (over 2^31 - 1 ms it would fire at once, with a TimeoutOverflowWarning).
 *
 * @module
 */

/**
 * The longest a request may ask the fake to hold its answer (`Prefer: delay`), a fault may hold it
 * (`delayMs`), or chaos may draw, in milliseconds (5 minutes): longer than any timeout a test sets,
 * short enough that a forgotten request does not hold its connection for long.
 */
export const MAX_DELAY_MS = 300_000;

/** The range, as every refusal of a delay says it. */
export const DELAY_RANGE = `whole milliseconds from 0 to ${MAX_DELAY_MS}`;

/** Whether `value` is a delay the fake holds: an integer from 0 to `fakePetStoreConstants.maxDelayMs`. */
export function isDelayInRange(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DELAY_MS;
}
