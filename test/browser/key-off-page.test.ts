import { HttpResponse, http } from 'msw';
import { setupWorker } from 'msw/browser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AuthenticationError, PetStoreClient } from '../../src/index.js';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';

// The page's own backend route, played by the fake: the key is the route's, never the page's.
const ROUTE_KEY = 'route-key-0123456789';
const SHORT_LIVED_KEY = 'short-lived-key-42';
const store = createFakePetStore({
  baseUrl: new URL('/api/animal-store/v1', window.location.origin),
  apiKeys: { [ROUTE_KEY]: 'pro', [SHORT_LIVED_KEY]: 'free' },
  proxyKey: ROUTE_KEY,
  pets: samplePets(3),
});
const keyRoute = http.get('/api/animal-store-key', () =>
  HttpResponse.json({ key: SHORT_LIVED_KEY, expires: Date.now() + 60_000 }),
);
const worker = setupWorker(...store.handlers, keyRoute);
beforeAll(() => worker.start({ quiet: true, onUnhandledFrame: 'bypass' }));
afterEach(() => store.reset());
afterAll(() => worker.stop());

describe('a page that keeps the key off the page, against the msw worker with proxyKey', () => {
  it('runs with apiKey: null, served as the route key on its plan', async () => {
    const client = new PetStoreClient({ apiKey: null, baseUrl: store.baseUrl });
    expect(await client.listPets()).toHaveLength(3);
    expect(client.rateLimit).toMatchObject({ limit: 300, remaining: 299 });
    expect(await client.createPet({ name: 'Biscuit', categoryId: 2 })).toMatchObject({ id: 4 });
    expect(store.requests.map((request) => request.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('runs with a short-lived key function, whose key the store knows', async () => {
    const shortLivedKey = async () => {
      const response = await fetch('/api/animal-store-key', { credentials: 'same-origin' });
      return ((await response.json()) as { key: string }).key;
    };
    const client = new PetStoreClient({ apiKey: shortLivedKey, baseUrl: store.baseUrl });
    expect(await client.listPets({ limit: 2 })).toHaveLength(2);
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 59 });
    expect(store.requests[0]?.headers.authorization).toBe(`Bearer ${SHORT_LIVED_KEY}`);
  });

  it('still refuses a wrong key with 401', async () => {
    const client = new PetStoreClient({ apiKey: () => 'expired-key', baseUrl: store.baseUrl });
    const error = await client.listPets().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toMatchObject({ status: 401 });
  });
});
