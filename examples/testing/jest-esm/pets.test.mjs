import { expect, it, jest } from '@jest/globals';
import { PetStoreClient } from 'animal-store-sdk';
import { advanceUntilSettled, createFakePetStore, fakePetStoreConstants } from 'animal-store-sdk/testing';

it('waits out a 429', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  const store = createFakePetStore();
  store.injectFault({ status: 429, headers: { 'Retry-After': '8' } });
  const client = new PetStoreClient({
    apiKey: fakePetStoreConstants.defaultApiKey,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
  });

  const { value } = await advanceUntilSettled(client.listPets(), (ms) => jest.advanceTimersByTimeAsync(ms));

  expect(value).toEqual([]);
  jest.useRealTimers();
});
