import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { API_KEY, BASE_URL, browserClient, serveStoreThroughWorker } from './support/store-worker.js';

const store = serveStoreThroughWorker();

describe('the client in a browser page, through the page fetch', () => {
  it('creates a pet, then finds it by listing and by id', async () => {
    const { client } = browserClient({ deprecationWarnings: false });
    const created = await client.createPet({ name: 'Biscuit', categoryId: 2, status: 'pending' });
    expect(created).toEqual({ id: 4, name: 'Biscuit', categoryId: 2, status: 'pending' });

    const pending = await client.listPets({ status: 'pending' });
    expect(pending.map((pet) => pet.name)).toEqual(['Bella', 'Biscuit']);
    expect(await client.getPet(4)).toEqual(created);
    expect(store.pets).toContainEqual(created);
  });

  it('sends the API key as a bearer token and the query the caller asked for', async () => {
    const { client } = browserClient();
    expect(await client.listPets({ limit: 2 })).toHaveLength(2);
    const [request] = store.requests;
    expect(request?.url).toBe(`${BASE_URL}/pets?limit=2`);
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it('reads the rate limit from the response headers', async () => {
    const { client } = browserClient();
    expect(client.rateLimit).toBeNull();
    await client.listPets();
    expect(client.rateLimit).toMatchObject({ limit: 300, remaining: 299 });
    expect(client.rateLimit?.reset.getTime()).toBeGreaterThan(Date.now());

    const { response, rateLimit } = await client.createPet({ name: 'Pip', categoryId: 1 }).withResponse();
    expect(response.status).toBe(201);
    expect(response.headers.get('x-ratelimit-remaining')).toBe('298');
    expect(rateLimit?.remaining).toBe(298);
    expect(client.rateLimit?.remaining).toBe(298);
  });

  it('rejects with the typed error the status maps to', async () => {
    const { client } = browserClient({ deprecationWarnings: false });
    const error = await client.getPet(999).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404 });
    expect(String(error)).not.toContain(API_KEY);
  });
});
