import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { NotFoundError, type RequestOptions } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { latin1RequestOptions, petId } from './support/arbitraries.js';
import { callOnce, expectHonoured, propertyStore, SEED_PETS } from './support/calls.js';
import { expectedHeaders } from './support/expected.js';
import { all, petIdVerdict, requestOptionsVerdict } from './support/oracle.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('getPet(id, options) with any arguments', () => {
  it('sends one well-formed GET /pets/<id> the store answers, or rejects with RequestValidationError and sends nothing', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(petId, latin1RequestOptions, async (id, options) => {
        const verdict = all(petIdVerdict(id), requestOptionsVerdict(options));
        const record = await callOnce(store, (client) =>
          client.getPet(id as number, options as RequestOptions),
        );
        const sent = await expectHonoured(record, verdict, () => ({
          method: 'GET',
          path: `/pets/${String(id)}`,
          headers: expectedHeaders(options),
        }));
        if (!sent) return;
        const seeded = SEED_PETS.find((pet) => pet.id === id);
        if (seeded === undefined) {
          expect(record.outcome.kind).toBe('rejected');
          expect((record.outcome as { error: unknown }).error).toBeInstanceOf(NotFoundError);
        } else {
          expect(record.outcome).toEqual({ kind: 'resolved', value: seeded });
        }
      }),
      { numRuns: 300 },
    );
  });
});
