import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { NewPet, Pet, RequestOptions } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { latin1RequestOptions, newPet } from './support/arbitraries.js';
import { callOnce, expectHonoured, propertyStore, SEED_PETS } from './support/calls.js';
import { expectedBody, expectedHeaders } from './support/expected.js';
import { all, newPetVerdict, requestOptionsVerdict } from './support/oracle.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('createPet(pet, options) with any arguments', () => {
  it('sends one well-formed POST /pets the store accepts, or rejects with RequestValidationError and sends nothing', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(newPet, latin1RequestOptions, async (pet, options) => {
        const verdict = all(newPetVerdict(pet), requestOptionsVerdict(options));
        const record = await callOnce(store, (client) =>
          client.createPet(pet as NewPet, options as RequestOptions),
        );
        const sent = await expectHonoured(record, verdict, () => ({
          method: 'POST',
          path: '/pets',
          body: expectedBody(pet),
          headers: expectedHeaders(options),
        }));
        if (!sent) {
          expect(store.pets).toHaveLength(SEED_PETS.length);
          return;
        }
        expect(record.outcome.kind).toBe('resolved');
        const created = (record.outcome as { value: Pet }).value;
        expect(created).toMatchObject(expectedBody(pet) as object);
        expect(created.id).toBeGreaterThan(Math.max(...SEED_PETS.map((seeded) => seeded.id)));
        expect(store.pets).toContainEqual(created);
        expect(store.pets).toHaveLength(SEED_PETS.length + 1);
      }),
      { numRuns: 300 },
    );
  });
});
