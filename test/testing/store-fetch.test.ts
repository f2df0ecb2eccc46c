import { describe, expect, it } from 'vitest';
import type { Fetch } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

describe('store.fetch', () => {
  it('has the signature of fetch, the type the client takes', () => {
    const asFetch: Fetch = createFakePetStore().fetch;
    const standIn: typeof globalThis.fetch = asFetch;
    expect(typeof standIn).toBe('function');
  });

  it('takes a Request, a URL or a string', async () => {
    const store = createFakePetStore();
    const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}` };
    const url = `${store.baseUrl}/pets`;
    const statuses = [
      (await store.fetch(new Request(url, { headers }))).status,
      (await store.fetch(new URL(url), { headers })).status,
      (await store.fetch(url, { headers })).status,
    ];
    expect(statuses).toEqual([200, 200, 200]);
  });

  it.each([
    'http://animal-store.test/v2/pets',
    'http://animal-store.test/pets',
    'https://animal-store.test/v1/pets',
    'http://animal-store.test:8080/v1/pets',
    'http://example.test/v1/pets',
  ])('rejects %s, outside the base URL, like an unreachable host', async (url) => {
    const store = createFakePetStore();
    const failure = await store.fetch(url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect(String((failure as TypeError).cause)).toContain(url);
    expect(store.requests).toEqual([]);
  });

  it('rejects with the abort reason when the signal is already aborted', async () => {
    const store = createFakePetStore();
    const failure = store.fetch(`${store.baseUrl}/pets`, { signal: AbortSignal.abort() });
    await expect(failure).rejects.toMatchObject({ name: 'AbortError' });
    expect(store.requests).toEqual([]);
  });
});
