/**
 * `createFakePetStore`, the entry point of `animal-store-sdk/testing`.
 *
 * @module
 */

import { loadMsw } from './msw/load-msw.js';
import { createMswHandlers } from './msw/msw.js';
import { watchFakeClock } from './pending-waits.js';
import { buildFakePetStore, type FakePetStore, type FakePetStoreOptions } from './store/fake-store.js';

/**
 * Creates a fake Animal Store that behaves like the real service wherever the interface says how.
 * The choices it makes where the interface is silent are listed in the `animal-store-sdk/testing`
 * module documentation. From then on, a wait of the client or of the fake that sits on a fake clock
 * nobody steps for a second of real time is named in a console warning (see `pendingWaits`).
 *
 * @throws TypeError or RangeError when an option is invalid (a base URL not ending in `/v1`, an
 * unknown plan, an invalid pet, ...); TypeError for an option of an unknown name, naming the one it
 * most likely meant.
 *
 * @example
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }] });
 * const server = setupServer(...store.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 *
 * const response = await fetch('http://animal-store.test/v1/pets/1', {
 *   headers: { Authorization: 'Bearer test-api-key' },
 * });
 * await response.json(); // { id: 1, name: 'Rex', categoryId: 1, status: 'available' }
 * server.close();
 * ```
 */
export function createFakePetStore(options: FakePetStoreOptions = {}): FakePetStore {
  watchFakeClock();
  return buildFakePetStore(options, (core) => createMswHandlers(loadMsw(), core));
}
