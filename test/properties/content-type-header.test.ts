import fc from 'fast-check';
import { afterEach, beforeEach, describe, it, vi } from 'vitest';
import { useFakeClock } from '../support/fake-clock.js';
import { callOnce, expectHonoured, propertyStore } from './support/calls.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

const name = fc.constantFrom('Content-Type', 'content-type', 'CONTENT-TYPE');
const value = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  '',
);

describe('a per-call Content-Type header on createPet', () => {
  it('never changes how the body is sent: the call is rejected, or the body still goes as JSON', async () => {
    const store = propertyStore();
    await fc.assert(
      fc.asyncProperty(name, value, async (headerName, headerValue) => {
        const record = await callOnce(store, (client) =>
          client.createPet({ name: 'Rex', categoryId: 1 }, { headers: { [headerName]: headerValue } }),
        );
        await expectHonoured(record, 'either', () => ({
          method: 'POST',
          path: '/pets',
          body: { name: 'Rex', categoryId: 1 },
        }));
      }),
      { numRuns: 50 },
    );
  });
});
