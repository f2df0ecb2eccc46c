import { describe, expect, it } from 'vitest';
import { APIConnectionTimeoutError, type Fetch } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { attempts, created, createPet, IDEMPOTENT, matching } from './support/operations.js';

useFaultHarness();

/** A fetch whose answers arrive `delayMs` after the store has handled the request. */
function lateAnswers(fetch: Fetch, delayMs: number): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    // As fetch does: the init's signal over the Request's.
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      signal?.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(signal.reason);
      });
    });
    return response;
  };
}

describe.each(IDEMPOTENT)('$name on a slow service', (operation) => {
  it('times out every attempt, retries, then fails with APIConnectionTimeoutError', async () => {
    const { client, store, logger } = faultSetup({ client: { timeout: 1_000, maxRetries: 2 } });
    store.injectFault({ match: matching(operation), delay: 5_000, times: Infinity });
    const { error, elapsed } = await settle(operation.call(client));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(attempts(store, operation)).toBe(3);
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    expectKeyHidden(error, logger);
  });

  it('succeeds when only the first attempt is slow', async () => {
    const { client, store, logger } = faultSetup({ client: { timeout: 1_000 } });
    store.injectFault({ match: matching(operation), delay: 5_000 });
    const { error, value } = await settle(operation.call(client));
    expect(error).toBeUndefined();
    expect(value === undefined).toBe(operation.response === undefined);
    expect(attempts(store, operation)).toBe(2);
    expectKeyHidden(error, logger);
  });

  it('uses the per-call timeout over the client one', async () => {
    const { client, store, logger } = faultSetup({ client: { timeout: 60_000 } });
    store.injectFault({ match: matching(operation), delay: 5_000, times: Infinity });
    const { error, elapsed } = await settle(operation.call(client, { timeout: 200, maxRetries: 0 }), 10);
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(elapsed).toBeGreaterThanOrEqual(200);
    expect(elapsed).toBeLessThan(300);
    expect(attempts(store, operation)).toBe(1);
    expectKeyHidden(error, logger);
  });
});

describe('createPet on a slow service', () => {
  it('times out once and is not sent again', async () => {
    const { client, store, logger } = faultSetup({ client: { timeout: 1_000, maxRetries: 5 } });
    store.injectFault({ match: matching(createPet), delay: 5_000, times: Infinity });
    const { error } = await settle(createPet.call(client));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(attempts(store, createPet)).toBe(1);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });

  it('leaves exactly one new pet when the service created it but answered too late', async () => {
    const { client, store, logger } = faultSetup({
      client: { timeout: 1_000, maxRetries: 5 },
      through: (fetch) => lateAnswers(fetch, 5_000),
    });
    const { error } = await settle(createPet.call(client));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(attempts(store, createPet)).toBe(1);
    expect(created(store)).toBe(1);
    expectKeyHidden(error, logger);
  });
});
