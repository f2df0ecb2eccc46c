import { describe, expect, it, vi } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { START, settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { attempts, created, createPet, listPets, matching } from './support/operations.js';

useFaultHarness();

describe.each([listPets, createPet])(
  'a 429 on $name whose rate-limit headers show requests left',
  (operation) => {
    it.each([
      ['absent', undefined],
      ['garbage', 'soon, promise'],
    ])(
      'with Retry-After %s, backs off and retries instead of waiting out the window',
      async (_, retryAfter) => {
        // Half a second into the second, as most calls are: the store's X-RateLimit-Reset (whole
        // seconds, rounded up) is then 60.5 s ahead, although the window has all its requests left.
        vi.setSystemTime(START + 500);
        const { client, store, logger } = faultSetup();
        store.injectFault({
          match: matching(operation),
          status: 429,
          ...(retryAfter === undefined ? {} : { headers: { 'Retry-After': retryAfter } }),
        });
        const { error, elapsed } = await settle(operation.call(client), 10);
        expect(error).toBeUndefined();
        expect(elapsed).toBeLessThan(1_000);
        expect(attempts(store, operation)).toBe(2);
        expect(created(store)).toBe(operation === createPet ? 1 : 0);
        expectKeyHidden(error, logger);
      },
    );
  },
);

describe('a Retry-After with more digits than a number holds', () => {
  it('reports a finite wait that survives JSON', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '9'.repeat(400) } });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(RateLimitError);
    const { retryAfterMs } = error as RateLimitError;
    expect(Number.isFinite(retryAfterMs)).toBe(true);
    expect(JSON.parse(JSON.stringify(error)).retryAfterMs).toBe(retryAfterMs);
    expect(store.requests).toHaveLength(1);
    expectKeyHidden(error, logger);
  });
});
