import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useFakeClock } from '../support/fake-clock.js';
import { callOnce, expectHonoured, propertyStore } from './support/calls.js';
import { expectedHeaders } from './support/expected.js';
import { requestOptionsVerdict } from './support/oracle.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('a per-call header named __proto__', () => {
  it('is sent like any other token-named header, or rejected', async () => {
    const options = JSON.parse('{"headers":{"__proto__":"x","X-Trace":"1"}}') as unknown;
    expect(Object.keys(expectedHeaders(options))).toEqual(['__proto__', 'X-Trace']);
    const record = await callOnce(propertyStore(), (client) => client.listPets({}, options as object));
    await expectHonoured(record, requestOptionsVerdict(options), () => ({
      method: 'GET',
      path: '/pets',
      headers: expectedHeaders(options),
    }));
  });
});
