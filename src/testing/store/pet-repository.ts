/**
 * The fake Animal Store's animals: an in-memory table ordered by id.
 *
 * @module
 */
import { type NewPet, type Pet, PetSchema, type PetStatus } from '../../schemas.js';

/**
 * The status a new animal gets when `createPet` omits `status`.
 */
export const DEFAULT_NEW_PET_STATUS: PetStatus = 'available';

/**
 * The animals of one fake store. Ids are assigned from one above the highest id held since the animals
 * were last set (at the start, on reset, or replaced), so an id is never reused in between, and every
 * change happens synchronously, so concurrent creates can neither lose nor
 * duplicate an animal.
 */
export class PetRepository {
  readonly #initial: readonly Pet[];
  #byId = new Map<number, Pet>();
  #nextId = 1;

  /**
   * @param initial The animals the store starts with (and returns to on {@link PetRepository.reset}).
   * @throws TypeError when an animal is not a valid Pet or two share an id.
   */
  constructor(initial: readonly Pet[]) {
    this.#initial = checkedPets(initial);
    this.reset();
  }

  /**
   * Every animal, ordered by id, optionally only those with `status`, at most `limit` of them.
   */
  list(query: { readonly limit: number; readonly status?: PetStatus | undefined }): Pet[] {
    const result: Pet[] = [];
    for (const pet of this.#byId.values()) {
      if (result.length >= query.limit) break;
      if (query.status === undefined || pet.status === query.status) result.push({ ...pet });
    }
    return result;
  }

  /**
   * Every animal, ordered by id.
   */
  all(): Pet[] {
    return [...this.#byId.values()].map((pet) => ({ ...pet }));
  }

  /**
   * The animal with `id`, or `undefined`.
   */
  get(id: number): Pet | undefined {
    const pet = this.#byId.get(id);
    return pet === undefined ? undefined : { ...pet };
  }

  /**
   * Adds an animal with a new id; an omitted `status` becomes `fakePetStoreConstants.defaultNewPetStatus`.
   * `undefined`, and nothing added, when the next id would pass `Number.MAX_SAFE_INTEGER`: past it,
   * numbers lose precision and two pets would share an id.
   */
  create(newPet: NewPet): Pet | undefined {
    if (this.#nextId > Number.MAX_SAFE_INTEGER) return undefined;
    const pet: Pet = Object.freeze({
      id: this.#nextId,
      name: newPet.name,
      categoryId: newPet.categoryId,
      status: newPet.status ?? DEFAULT_NEW_PET_STATUS,
    });
    this.#nextId += 1;
    // Ids only grow, so inserting at the end keeps the map ordered by id.
    this.#byId.set(pet.id, pet);
    return { ...pet };
  }

  /**
   * Replaces every animal with `pets`; new ids continue above the highest of them.
   *
   * @throws TypeError when an animal is not a valid Pet or two share an id; nothing changes then.
   */
  replace(pets: readonly Pet[]): void {
    this.#load(checkedPets(pets));
  }

  /**
   * Returns to the initial animals.
   */
  reset(): void {
    this.#load(this.#initial);
  }

  #load(pets: readonly Pet[]): void {
    const sorted = [...pets].sort((a, b) => a.id - b.id);
    this.#byId = new Map(sorted.map((pet) => [pet.id, pet]));
    this.#nextId = Math.max(0, sorted.at(-1)?.id ?? 0) + 1;
  }
}

/** The animals parsed with `PetSchema` and frozen; two with one id are refused. */
function checkedPets(pets: readonly Pet[]): readonly Pet[] {
  const ids = new Set<number>();
  return pets.map((pet, index) => {
    const parsed = PetSchema.safeParse(pet);
    if (!parsed.success) {
      const problems = parsed.error.issues.map(
        (issue) => `${issue.path.join('.') || 'pet'}: ${issue.message}`,
      );
      throw new TypeError(`pets[${index}] is not a valid Pet: ${problems.join('; ')}`);
    }
    if (ids.has(parsed.data.id)) throw new TypeError(`pets: two pets share the id ${parsed.data.id}`);
    ids.add(parsed.data.id);
    return Object.freeze(parsed.data);
  });
}
