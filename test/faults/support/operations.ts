import type { APIPromise, PetStoreClient, RequestOptions } from '../../../src/index.js';
import { type OperationName, type OperationSpec, OPERATIONS as TABLE } from '../../../src/operations.js';
import type { FakePetStore } from '../../../src/testing/index.js';
import { REX } from './harness.js';

/** One client operation, as a fault test drives it: its table entry, the path of its request, a call. */
export interface Operation extends Omit<OperationSpec, 'path'> {
  readonly name: OperationName;
  /** The path the store records for it: its template with REX's id. */
  readonly path: string;
  call(client: PetStoreClient, options?: RequestOptions): APIPromise<unknown>;
}

/** How each operation of the table is called against the harness's store (which holds REX). */
const CALLS: { readonly [Name in OperationName]: Operation['call'] } = {
  listPets: (client, options) => client.listPets({}, options),
  getPet: (client, options) => client.getPet(REX.id, options),
  createPet: (client, options) =>
    client.createPet({ name: 'Bella', categoryId: 2, status: 'pending' }, options),
};

/** Every operation of the table. */
export const OPERATIONS: readonly Operation[] = (
  Object.entries(TABLE) as [OperationName, OperationSpec][]
).map(([name, entry]) => ({
  ...entry,
  name,
  path: entry.path.replace(/{\w+}/, String(REX.id)),
  call: CALLS[name],
}));

const byName = (name: OperationName): Operation =>
  OPERATIONS.find((operation) => operation.name === name) as Operation;

export const listPets = byName('listPets');
export const getPet = byName('getPet');
export const createPet = byName('createPet');

/** The operations the table says may be sent twice: the client retries them after any failure. */
export const IDEMPOTENT = OPERATIONS.filter((operation) => operation.idempotent);

/** The operations whose success has a body, and those of them that are idempotent. */
export const WITH_BODY = OPERATIONS.filter((operation) => operation.response !== undefined);
export const IDEMPOTENT_WITH_BODY = WITH_BODY.filter((operation) => operation.idempotent);

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
