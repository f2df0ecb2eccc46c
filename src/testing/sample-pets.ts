/**
 * Sample animals to seed a fake Animal Store with.
 *
 * @module
 */
import type { Pet, PetStatus } from '../schemas.js';

const NAMES = ['Rex', 'Bella', 'Milo', 'Luna', 'Oscar', 'Coco', 'Max', 'Daisy', 'Leo', 'Nala'] as const;
const STATUSES: readonly PetStatus[] = ['available', 'pending', 'sold'];

/**
 * `count` sample animals with ids 1 to `count`. They are the same on every call: names cycle through
 * ten names (numbered after the first round), categories through 1 to 3, statuses through `available`,
 * `pending` and `sold`.
 *
 * @throws RangeError when `count` is not an integer from 0 to 100,000.
 *
 * @example
 * ```ts
 * import { createFakePetStore, samplePets } from 'animal-store-sdk/testing';
 *
 * samplePets(2); // [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }, { id: 2, name: 'Bella', categoryId: 2, status: 'pending' }]
 * const store = createFakePetStore({ pets: samplePets(50) });
 * ```
 */
export function samplePets(count: number): Pet[] {
  if (!Number.isInteger(count) || count < 0 || count > 100_000) {
    throw new RangeError(`samplePets: count must be an integer from 0 to 100000, got ${count}`);
  }
  return Array.from({ length: count }, (_, index) => {
    const round = Math.floor(index / NAMES.length);
    const name = NAMES[index % NAMES.length] ?? 'Pet';
    return {
      id: index + 1,
      name: round === 0 ? name : `${name} ${round + 1}`,
      categoryId: (index % 3) + 1,
      status: STATUSES[index % STATUSES.length] ?? 'available',
    };
  });
}
