import { vi } from 'vitest';
import { type ClientOptions, PetStoreClient } from '../../src/index.js';
import { createFakePetStore, type FakePetStoreOptions } from '../../src/testing/index.js';

export const API_KEY = 'sk-test-very-secret-0123456789';
export const BASE_URL = 'http://animal-store.test/v1';

/** A fake store that knows {@link API_KEY}, and a client that talks to it through `store.fetch`. */
export function setup(clientOptions: ClientOptions = {}, storeOptions: Partial<FakePetStoreOptions> = {}) {
  const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: 'pro' }, ...storeOptions });
  const logger = { warn: vi.fn<(message: string) => void>() };
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: store.fetch,
    logger,
    ...clientOptions,
  });
  return { store, client, logger };
}
