/**
 * The one check of an options object's names, for the client and the fake alike.
 *
 * @module
 */
import { closestName } from './closest-name.js';

/**
 * Throws a `TypeError` for the first key of `value` not `known`, naming what it most likely meant
 * (`Unknown PetStoreClient option "baseURL": did you mean "baseUrl"?`), or else every known one.
 */
export function checkNames(what: string, value: object, known: readonly string[]): void {
  for (const name of Object.keys(value)) {
    if (known.includes(name)) continue;
    const close = closestName(name, known);
    throw new TypeError(
      `Unknown ${what} "${name}": ${close ? `did you mean "${close}"?` : `expected one of ${known.join(', ')}`}`,
    );
  }
}
