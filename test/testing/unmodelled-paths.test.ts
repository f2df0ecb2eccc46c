import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Fetch, NotFoundError, PetStoreClient } from '../../src/index.js';
import { createFakePetStore, DEFAULT_API_KEY } from '../../src/testing/index.js';

const ORDERS = [{ id: 1, petId: 1, quantity: 2 }];

describe('a path the fake store does not model', () => {
  it('is a 404, until a test adds its own msw handler with server.use()', async () => {
    const store = createFakePetStore();
    const server = setupServer(...store.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    onTestFinished(() => server.close());
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: store.baseUrl });

    await expect(client.request({ method: 'GET', path: '/store/orders' })).rejects.toBeInstanceOf(
      NotFoundError,
    );

    const seen: (string | null)[] = [];
    server.use(
      http.get(`${store.baseUrl}/store/orders`, ({ request }) => {
        seen.push(request.headers.get('authorization'));
        return HttpResponse.json(ORDERS);
      }),
    );
    expect(await client.request({ method: 'GET', path: '/store/orders' })).toEqual(ORDERS);
    expect(seen).toEqual([`Bearer ${DEFAULT_API_KEY}`]);
    // The rest still reaches the fake store.
    expect(await client.listPets()).toEqual([]);
  });

  it('can be answered by wrapping store.fetch', async () => {
    const store = createFakePetStore();
    const fetch: Fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname === '/v1/store/orders') return Response.json(ORDERS);
      return store.fetch(request);
    };
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: store.baseUrl, fetch });
    expect(await client.request({ method: 'GET', path: '/store/orders' })).toEqual(ORDERS);
    expect(await client.listPets()).toEqual([]);
    expect(store.requests.map((r) => r.path)).toEqual(['/pets']);
  });
});
