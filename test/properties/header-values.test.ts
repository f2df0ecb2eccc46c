import fc from 'fast-check';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import type { RequestOptions } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { headerMap, latin1HeaderValue, unicodeString } from './support/arbitraries.js';
import { callOnce, expectHonoured, propertyStore } from './support/calls.js';
import { expectedHeaders } from './support/expected.js';
import { requestOptionsVerdict } from './support/oracle.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

const options = headerMap(fc.oneof(latin1HeaderValue, unicodeString)).map((headers) => ({ headers }));

describe('per-call header values from the whole of Unicode', () => {
  it('are sent as given when Headers can carry them, and rejected with RequestValidationError otherwise', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(options, async (callOptions) => {
        const record = await callOnce(store, (client) => client.listPets({}, callOptions as RequestOptions));
        await expectHonoured(record, requestOptionsVerdict(callOptions), () => ({
          method: 'GET',
          path: '/pets',
          headers: expectedHeaders(callOptions),
        }));
      }),
      { numRuns: 200 },
    );
  });
});
