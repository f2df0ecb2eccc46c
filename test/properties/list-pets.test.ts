import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ListPetsParams, Pet, RequestOptions } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { latin1RequestOptions, listParams } from './support/arbitraries.js';
import { callOnce, expectHonoured, propertyStore } from './support/calls.js';
import { expectedHeaders, expectedQuery } from './support/expected.js';
import { all, listParamsVerdict, requestOptionsVerdict } from './support/oracle.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('listPets(params, options) with any arguments', () => {
  it('sends one well-formed GET /pets the store answers, or rejects with RequestValidationError and sends nothing', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(listParams, latin1RequestOptions, async (params, options) => {
        const verdict = all(listParamsVerdict(params), requestOptionsVerdict(options));
        const record = await callOnce(store, (client) =>
          client.listPets(params as ListPetsParams, options as RequestOptions),
        );
        const sent = await expectHonoured(record, verdict, () => ({
          method: 'GET',
          path: '/pets',
          query: expectedQuery(params),
          headers: expectedHeaders(options),
        }));
        if (!sent) return;
        expect(record.outcome.kind).toBe('resolved');
        const pets = (record.outcome as { value: Pet[] }).value;
        const { limit, status } = expectedQuery(params);
        expect(pets.length).toBeLessThanOrEqual(Number(limit ?? 20));
        for (const pet of pets) if (status !== undefined) expect(pet.status).toBe(status);
      }),
      { numRuns: 300 },
    );
  });
});
