/**
 * The browser build's guess at the name an unknown option meant: none, so the error lists the known
 * names. Same exports.
 *
 * @module
 */

export function closestName(_name: string, _known: readonly string[]): string | undefined {
  return undefined;
}

export function didYouMean(_name: string, _known: readonly string[]): string | undefined {
  return undefined;
}
