/**
 * What a component test under a DOM environment (jsdom, happy-dom) relies on: the process is still
 * Node, so the client is not "in a browser" although `window` and `document` exist.
 */
import { describe, expect, it } from 'vitest';
import { APIConnectionError, type Fetch, PetStoreClient } from '../../src/index.js';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { API_KEY, BASE_URL } from './setup.js';

export function describeUnderDomEnvironment(name: string): void {
  describe(`under ${name}`, () => {
    it('has a window and a document, as a component test expects', () => {
      expect(typeof window).toBe('object');
      expect(typeof document.createElement).toBe('function');
      expect(navigator.userAgent).toMatch(new RegExp(name.replace('-', '.?'), 'i'));
    });

    it('builds a client with a string key, without dangerouslyAllowBrowser, and calls the service', async () => {
      const store = createFakePetStore({
        baseUrl: BASE_URL,
        apiKeys: { [API_KEY]: 'pro' },
        pets: samplePets(2),
      });
      const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch: store.fetch });
      const controller = new AbortController();
      const pets = await client.listPets({ limit: 2 }, { signal: controller.signal });
      expect(pets.map((pet) => pet.name)).toEqual(['Rex', 'Bella']);
    });

    it('says nothing of CORS when the service cannot be reached', async () => {
      const fetch: Fetch = async () => {
        throw new TypeError('fetch failed');
      };
      const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch, maxRetries: 0 });
      const error = await client.listPets().catch((reason: unknown) => reason);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect((error as Error).message).not.toMatch(/CORS/);
    });
  });
}
