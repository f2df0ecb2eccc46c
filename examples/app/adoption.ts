/**
 * A shelter's adoption desk: the application code that app.test.ts tests against the fake
 * Animal Store. It takes the client as an argument, so a test can hand it one pointed at the fake.
 *
 * @module
 */
import {
  APIConnectionError,
  InternalServerError,
  type Pet,
  type PetStatus,
  type PetStoreClient,
  RateLimitError,
  RefusedError,
} from '../../src/index.js';

/** What the adoption board shows: the animals ready for adoption, or why it cannot show them now. */
export type AdoptionBoard =
  | { readonly state: 'open'; readonly pets: readonly Pet[] }
  | { readonly state: 'busy'; readonly retryInMs: number | null }
  | { readonly state: 'down' };

/** The animals available for adoption, by name; a rate limit or an outage becomes a board state. */
export async function adoptionBoard(client: PetStoreClient): Promise<AdoptionBoard> {
  try {
    const pets = await client.listPets({ status: 'available', limit: 100 });
    return { state: 'open', pets: pets.toSorted((a, b) => a.name.localeCompare(b.name)) };
  } catch (error) {
    // The service's 429, or the client's own refusal (a cooldown beyond maxRetryAfter, a full queue).
    if (error instanceof RateLimitError || error instanceof RefusedError) {
      return { state: 'busy', retryInMs: error.retryAfterMs };
    }
    if (error instanceof InternalServerError || error instanceof APIConnectionError) return { state: 'down' };
    throw error;
  }
}

/** Registers an animal arriving at the shelter, ready for adoption. */
export function admit(client: PetStoreClient, arrival: { name: string; categoryId: number }): Promise<Pet> {
  return client.createPet({ name: arrival.name.trim(), categoryId: arrival.categoryId, status: 'available' });
}

/** How many animals have each status: one listPets call per status. */
export async function census(client: PetStoreClient): Promise<Record<PetStatus, number>> {
  const count = async (status: PetStatus) => (await client.listPets({ status, limit: 100 })).length;
  const [available, pending, sold] = await Promise.all([count('available'), count('pending'), count('sold')]);
  return { available, pending, sold };
}
