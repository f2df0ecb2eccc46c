import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { type Fetch, NotFoundError, PetStoreClient } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { MODELLED_ROUTES } from '../../src/testing/rules/routes.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

async function failure(call: PromiseLike<unknown>): Promise<NotFoundError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof NotFoundError) return error;
    throw error;
  }
  throw new Error('The call succeeded');
}

const ORDERS = [{ id: 1, petId: 1, quantity: 2 }];

describe('a path the fake store does not model', () => {
  it('is a 404 not_modelled that names the modelled routes, logged as unmodelled; an unknown pet stays not_found', async () => {
    const store = createFakePetStore();
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
    });

    const unmodelled = await failure(client.request({ method: 'GET', path: '/store/orders' }));
    const missingPet = await failure(client.getPet(7));

    expect(unmodelled).toBeInstanceOf(NotFoundError);
    expect(unmodelled).toMatchObject({ status: 404, code: 'not_modelled' });
    expect(unmodelled.message).toContain(
      `does not model GET /store/orders; it models ${MODELLED_ROUTES.join(', ')}`,
    );
    expect(missingPet).toBeInstanceOf(NotFoundError);
    expect(missingPet).toMatchObject({ status: 404, code: 'not_found' });
    expect(store.requests.map(({ path, unmodelled }) => ({ path, unmodelled }))).toEqual([
      { path: '/store/orders', unmodelled: true },
      { path: '/pets/7', unmodelled: undefined },
    ]);
  });

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
