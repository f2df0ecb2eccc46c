/**
 * The browser build's guess at the name an unknown option meant: none. A page pays for every byte, so
 * there the error lists the known names instead (closest-name.ts guesses everywhere else).
 *
 * @module
 */

/** Always `undefined`: see closest-name.ts for the guess. */
export function closestName(_name: string, _known: readonly string[]): string | undefined {
  return undefined;
}
