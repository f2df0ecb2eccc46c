// pets.test.ts: this file's own session.
import { PetStoreClient } from 'animal-store-sdk';
import { connectFakePetStore, type RemoteFakePetStoreSession } from 'animal-store-sdk/testing';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';

let fake: RemoteFakePetStoreSession;
beforeAll(async () => {
  fake = await connectFakePetStore(inject('fakeStoreUrl')).createSession();
});
beforeEach(() => fake.reset());
afterAll(() => fake.end());

it('shows the error state when the service is down for one request', async () => {
  await fake.setPets([{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
  await fake.injectFault({ status: 503, match: { method: 'GET', path: '/pets' } });
  const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: fake.baseUrl, maxRetries: 0 });

  await expect(client.listPets()).rejects.toMatchObject({ status: 503 });
  expect(await client.listPets()).toHaveLength(1);
  expect((await fake.requests).map((request) => request.status)).toEqual([503, 200]);
});
