/**
 * Progress lines of the package tests, so a failure shows how far the consumer got.
 *
 * @module
 */

/** Prints one progress line, prefixed so it stands out among vitest's output. */
export function log(message: string): void {
  console.log(`[package] ${message}`);
}
