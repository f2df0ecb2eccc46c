import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIPromise, PetStoreClient } from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

describe('the three operations through store.fetch', () => {
  it('creates a pet and reads it back with the assigned id', async () => {
    const { client, store } = setup({ deprecationWarnings: false });
    const created = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' });
    expect(created).toEqual({ id: expect.any(Number), name: 'Rex', categoryId: 1, status: 'available' });
    expect(store.pets).toContainEqual(created);
    expect(await client.getPet(created.id)).toEqual(created);
  });

  it('lists pets with the limit and status filter on the query string', async () => {
    const { client, store } = setup();
    for (const [i, status] of (['available', 'sold', 'available', 'pending'] as const).entries()) {
      await client.createPet({ name: `Pet ${i}`, categoryId: 2, status });
    }
    const available = await client.listPets({ status: 'available', limit: 1 });
    expect(available).toHaveLength(1);
    expect(available[0]).toMatchObject({ name: 'Pet 0', status: 'available' });
    const last = store.requests.at(-1);
    expect(new URL(String(last?.url)).searchParams.toString()).toBe('limit=1&status=available');
    expect(await client.listPets()).toHaveLength(4);
    expect(new URL(String(store.requests.at(-1)?.url)).search).toBe('');
  });

  it('sends the API key as a bearer token on every request', async () => {
    const { client, store } = setup({ deprecationWarnings: false, headers: { 'X-Trace': 'abc' } });
    const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.listPets();
    await client.getPet(pet.id);
    expect(store.requests).toHaveLength(3);
    for (const request of store.requests) {
      expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(request.headers['x-trace']).toBe('abc');
    }
  });

  it('refuses headers the client sets itself, before sending anything', async () => {
    expect(() => setup({ headers: { Authorization: 'Bearer stolen' } })).toThrow(
      /Header "Authorization" is set by the client/,
    );
    const { client, store } = setup();
    await expect(client.listPets({}, { headers: { 'content-type': 'text/plain' } })).rejects.toThrow(
      /Header "content-type" is set by the client/,
    );
    expect(store.requests).toHaveLength(0);
  });

  it('returns an APIPromise whose withResponse gives the data, the response and the rate limit', async () => {
    const { client } = setup();
    const promise = client.createPet({ name: 'Rex', categoryId: 1 });
    expect(promise).toBeInstanceOf(APIPromise);
    expect(promise).toBeInstanceOf(Promise);
    const { data, response, rateLimit } = await promise.withResponse();
    expect(response.status).toBe(201);
    expect(data.name).toBe('Rex');
    expect(rateLimit).toEqual({
      limit: expect.any(Number),
      remaining: expect.any(Number),
      reset: expect.any(Date),
    });
    expect(await promise).toEqual(data);
  });

  it('exposes the latest rate-limit reading on the client', async () => {
    const { client } = setup();
    expect(client.rateLimit).toBeNull();
    await client.listPets();
    const first = client.rateLimit;
    await client.listPets();
    expect(first).not.toBeNull();
    expect(client.rateLimit?.limit).toBe(first?.limit);
    expect(client.rateLimit?.remaining).toBe((first?.remaining ?? 0) - 1);
  });

  it('accepts unknown extra fields in a response and strips them', async () => {
    const { client, store } = setup({ deprecationWarnings: false });
    store.injectFault({
      match: { method: 'GET', path: '/pets' },
      status: 200,
      body: JSON.stringify([{ id: 1, name: 'Rex', categoryId: 1, colour: 'brown' }]),
      headers: { 'content-type': 'application/json' },
    });
    expect(await client.listPets()).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
  });
});

describe('the operations through msw handlers', () => {
  const { store } = setup();
  // Created before the server listens: the global fetch must be looked up per request.
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, deprecationWarnings: false });
  const server = setupServer(...store.handlers);
  beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
  afterAll(() => server.close());

  it('is intercepted even though the client was created before server.listen()', async () => {
    const pet = await client.createPet({ name: 'Mia', categoryId: 3, status: 'pending' });
    expect(await client.listPets({ status: 'pending' })).toContainEqual(pet);
    expect(await client.getPet(pet.id)).toEqual(pet);
    expect(store.requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET']);
  });
});
