/**
 * A fake Animal Store served to the test page by msw's service worker: the page's real `fetch`
 * reaches it, as an application's would reach the service.
 *
 * @module
 */
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { type ClientOptions, PetStoreClient } from '../../../src/index.js';
import { createFakePetStore, type FakePetStore, samplePets } from '../../../src/testing/index.js';

export const API_KEY = 'sk-browser-test-0123456789';
export const BASE_URL = 'https://api.animal-store.test/v1';

/**
 * Starts the worker for the test file, with a store of three pets that knows {@link API_KEY} on
 * the Pro plan, and resets the store after each test.
 */
export function serveStoreThroughWorker(): FakePetStore {
  const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: 'pro' }, pets: samplePets(3) });
  const worker = setupWorker(...store.handlers);
  // Everything outside the store's base URL is the test runner's own traffic, left alone.
  beforeAll(() => worker.start({ quiet: true, onUnhandledFrame: 'bypass' }));
  afterEach(() => store.reset());
  afterAll(() => worker.stop());
  return store;
}

/**
 * A client of the store that uses the page's global `fetch`, with a spy as its logger. The page
 * holds the test key itself, so it says it may.
 */
export function browserClient(options: ClientOptions = {}) {
  const logger = { warn: vi.fn<(message: string) => void>() };
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    logger,
    dangerouslyAllowBrowser: true,
    ...options,
  });
  return { client, logger };
}
