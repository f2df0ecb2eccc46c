/**
 * The browser build's guess at the name an unknown option meant: none, so the error lists the known names.
 *
 * @module
 */

export function closestName(_name: string, _known: readonly string[]): string | undefined {
  return undefined;
}
