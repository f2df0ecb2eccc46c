import { PetStoreClient } from 'animal-store-sdk';
import { advanceUntilSettled, createFakePetStore, fakePetStoreConstants } from 'animal-store-sdk/testing';
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';

const store = createFakePetStore({ baseUrl: 'https://api.animal-store.test/v1' });
const worker = setupWorker(...store.handlers);
// The test runner's own requests pass through.
beforeAll(() => worker.start({ quiet: true, onUnhandledFrame: 'bypass' }));
afterEach(() => store.reset());
afterAll(() => worker.stop());

it('waits out a 429 while the worker answers', async () => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  store.injectFault({ status: 429, headers: { 'Retry-After': '8' } });
  // A page refuses a string key unless told it may hold one: here it is the fake's test key.
  const client = new PetStoreClient({
    apiKey: fakePetStoreConstants.defaultApiKey,
    baseUrl: store.baseUrl,
    dangerouslyAllowBrowser: true,
  });
  const { value } = await advanceUntilSettled(client.listPets(), (ms) => vi.advanceTimersByTimeAsync(ms));
  expect(value).toEqual([]);
  vi.useRealTimers();
});
