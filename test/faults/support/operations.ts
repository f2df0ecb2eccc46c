import type { APIPromise, PetStoreClient, RequestOptions } from '../../../src/index.js';
import type { FakePetStore } from '../../../src/testing/index.js';
import { REX } from './harness.js';

/** One client operation, as a fault test drives it. */
export interface Operation {
  readonly name: 'listPets' | 'getPet' | 'createPet';
  readonly method: 'GET' | 'POST';
  /** The path the store records for it. */
  readonly path: string;
  /** Whether sending it twice is harmless, so the client may repeat it after any failure. */
  readonly idempotent: boolean;
  call(client: PetStoreClient, options?: RequestOptions): APIPromise<unknown>;
}

export const listPets: Operation = {
  name: 'listPets',
  method: 'GET',
  path: '/pets',
  idempotent: true,
  call: (client, options) => client.listPets({}, options),
};

export const getPet: Operation = {
  name: 'getPet',
  method: 'GET',
  path: `/pets/${REX.id}`,
  idempotent: true,
  call: (client, options) => client.getPet(REX.id, options),
};

export const createPet: Operation = {
  name: 'createPet',
  method: 'POST',
  path: '/pets',
  idempotent: false,
  call: (client, options) => client.createPet({ name: 'Bella', categoryId: 2, status: 'pending' }, options),
};

export const OPERATIONS: readonly Operation[] = [listPets, getPet, createPet];

/** The fault `match` that picks out this operation's requests. */
export function matching(operation: Operation) {
  return { method: operation.method, path: operation.path };
}

/** How many requests of this operation reached the store. */
export function attempts(store: FakePetStore, operation: Operation): number {
  return store.requests.filter((r) => r.method === operation.method && r.path === operation.path).length;
}

/** How many animals the store holds beyond the one it started with. */
export function created(store: FakePetStore): number {
  return store.pets.length - 1;
}
