import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient, PetStoreError } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { API_KEY, BASE_URL } from '../client/setup.js';
import { useFakeClock } from '../support/fake-clock.js';
import { headerMap, latin1HeaderValue, unicodeString } from './support/arbitraries.js';
import { propertyStore } from './support/calls.js';
import { expectedHeaders } from './support/expected.js';
import { requestOptionsVerdict } from './support/oracle.js';
import { expectWellFormed, recordingFetch } from './support/wire.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('client options', () => {
  it('the headers option is refused with a PetStoreError by the constructor, or reaches the wire on every call', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(headerMap(fc.oneof(latin1HeaderValue, unicodeString)), async (headers) => {
        store.reset();
        const { fetch, sent } = recordingFetch(store.fetch);
        const valid = requestOptionsVerdict({ headers }) === 'send';
        let client: PetStoreClient;
        try {
          client = new PetStoreClient({
            apiKey: API_KEY,
            baseUrl: BASE_URL,
            fetch,
            headers: headers as Record<string, string>,
            logger: { warn: () => {} },
          });
        } catch (error) {
          expect(error).toBeInstanceOf(PetStoreError);
          expect(valid, 'refused headers that are valid').toBe(false);
          return;
        }
        expect(valid, 'accepted headers no request can carry').toBe(true);
        await client.listPets();
        expect(sent).toHaveLength(1);
        await expectWellFormed(sent[0] as Request, {
          method: 'GET',
          path: '/pets',
          headers: expectedHeaders({ headers }),
        });
      }),
      { numRuns: 200 },
    );
  });

  it('the apiKey option is refused with a PetStoreError by the constructor, or sent as the bearer token', async () => {
    const store = createFakePetStore({ baseUrl: BASE_URL });
    await fc.assert(
      fc.asyncProperty(fc.oneof(unicodeString, latin1HeaderValue), async (apiKey) => {
        const { fetch, sent } = recordingFetch(store.fetch);
        let client: PetStoreClient;
        try {
          client = new PetStoreClient({ apiKey, baseUrl: BASE_URL, fetch, logger: { warn: () => {} } });
        } catch (error) {
          expect(error).toBeInstanceOf(PetStoreError);
          return;
        }
        await client.listPets().catch((error: unknown) => {
          expect(error).toBeInstanceOf(PetStoreError);
        });
        expect(sent).toHaveLength(1);
        expect(sent[0]?.headers.get('authorization')).toBe(
          `Bearer ${apiKey.replace(/^[\t ]+|[\t ]+$/g, '')}`,
        );
      }),
      { numRuns: 200 },
    );
  });
});
