import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type Fetch, PetStoreClient, PetStoreError, RequestValidationError } from '../../src/index.js';
import { START, settle, useFakeClock } from '../support/fake-clock.js';
import { DataCache } from '../support/next-fetch.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client whose fetch records the init of every attempt before the fake store answers it. */
function recording(options: ConstructorParameters<typeof PetStoreClient>[0] = {}) {
  const inits: (RequestInit & { next?: unknown })[] = [];
  const context = setup();
  const fetch: Fetch = (input, init) => {
    inits.push({ ...init });
    return context.store.fetch(input, init);
  };
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch, ...options });
  return { ...context, client, inits };
}

describe('fetchOptions', () => {
  it('hands the client-wide options to every attempt, a call’s replacing them name by name', async () => {
    const { client, store, inits } = recording({
      fetchOptions: { credentials: 'include', next: { tags: ['pets'] } },
    });
    store.injectFault({ status: 503, times: 1 });
    await settle(client.listPets({}, { fetchOptions: { next: { revalidate: 60 }, priority: 'high' } }), 10);
    expect(inits).toHaveLength(2);
    expect(inits[0]).toMatchObject({ credentials: 'include', next: { revalidate: 60 }, priority: 'high' });
    await client.createPet({ name: 'Rex', categoryId: 1 });
    expect(inits[2]).toMatchObject({ credentials: 'include', next: { tags: ['pets'] } });
  });

  it('refuses the client’s own method, headers, body and signal per call, before any request', async () => {
    const { client, store } = recording();
    for (const own of [
      { headers: { 'x-a': 'b' } },
      { signal: AbortSignal.timeout(1_000) },
      { method: 'POST' },
    ]) {
      const call = client.listPets({}, { fetchOptions: own as never });
      await expect(call).rejects.toBeInstanceOf(RequestValidationError);
      await expect(call).rejects.toThrow(
        /fetchOptions: Expected fetch options without body, headers, method, signal/,
      );
    }
    await expect(client.listPets({}, { fetchOptions: 'cache' as never })).rejects.toThrow(
      /Expected fetch options/,
    );
    expect(store.requests).toHaveLength(0);
  });

  it('refuses them client-wide at construction', () => {
    const construct = () =>
      new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetchOptions: { body: 'x' } as never });
    expect(construct).toThrow(PetStoreError);
    expect(construct).toThrow(/fetchOptions: Expected fetch options without body/);
  });
});

describe('caching with fetchOptions, through Next.js’s fetch', () => {
  const tagged = { fetchOptions: { next: { revalidate: 60, tags: ['pets'] } } };

  it('serves a tagged read from the data cache until the tag is revalidated', async () => {
    const { store } = setup();
    const cache = new DataCache();
    const render = () =>
      new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch: cache.fetch(store.fetch) });
    await render().listPets({}, tagged);
    await render().listPets({}, tagged);
    expect(store.requests).toHaveLength(1);
    cache.revalidateTag('pets');
    await render().listPets({}, tagged);
    expect(store.requests).toHaveLength(2);
  });

  it('never serves a retry from the cache, though a response was stored for it meanwhile', async () => {
    const { store } = setup();
    const cache = new DataCache();
    const inRender = () =>
      new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch: cache.fetch(store.fetch) });
    store.injectFault({ status: 503, times: 1 });
    const failing = inRender().listPets({}, tagged);
    await vi.advanceTimersByTimeAsync(1);
    expect(store.requests.map((request) => request.status)).toEqual([503]);
    // Another render stores a 200 for the same read before the first one's retry.
    await inRender().listPets({}, tagged);
    const { error } = await settle(failing, 10);
    expect(error).toBeUndefined();
    expect(store.requests.map((request) => request.status)).toEqual([503, 200, 200]);
  });
});
