import { describe, expect, it } from 'vitest';
import { InternalServerError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { attempts, created, createPet, IDEMPOTENT, matching } from './support/operations.js';

useFaultHarness();

const STATUSES = [500, 502, 503, 504];

describe.each(IDEMPOTENT)('$name after a server error', (operation) => {
  it.each(STATUSES)(
    'is retried after %i until the retries are spent, then fails with InternalServerError',
    async (status) => {
      const { client, store, logger } = faultSetup();
      store.injectFault({ match: matching(operation), status, times: Infinity });
      const { error } = await settle(operation.call(client, { maxRetries: 2 }));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(error).toMatchObject({ status, body: { status } });
      expect(attempts(store, operation)).toBe(3);
      expectKeyHidden(error, logger);
    },
  );

  it.each(STATUSES)('succeeds when the service recovers after %i', async (status) => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ match: matching(operation), status });
    const { error, value } = await settle(operation.call(client));
    expect(error).toBeUndefined();
    expect(value === undefined).toBe(operation.response === undefined);
    expect(attempts(store, operation)).toBe(2);
    expectKeyHidden(error, logger);
  });
});

describe.each(IDEMPOTENT)('$name retried after a server error without Retry-After', (operation) => {
  it.each(STATUSES)(
    'backs off exponentially after %i, not until the rate-limit window resets',
    async (status) => {
      const { client, store, logger } = faultSetup();
      store.injectFault({ match: matching(operation), status, times: Infinity });
      const { error, elapsed } = await settle(operation.call(client, { maxRetries: 2 }), 10);
      expect(error).toBeInstanceOf(InternalServerError);
      expect(attempts(store, operation)).toBe(3);
      // 500 ms then 1,000 ms, each with up to half taken off by jitter.
      expect(elapsed).toBeGreaterThanOrEqual(750);
      expect(elapsed).toBeLessThanOrEqual(1_600);
      expectKeyHidden(error, logger);
    },
  );
});

describe('createPet after a server error', () => {
  it.each(STATUSES)('is never repeated after %i', async (status) => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ match: matching(createPet), status, times: Infinity });
    const { error } = await settle(createPet.call(client, { maxRetries: 10 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status });
    expect(attempts(store, createPet)).toBe(1);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });

  it.each(STATUSES)(
    'creates the pet once when a proxy answers %i after the service created it',
    async (status) => {
      const { client, store, logger } = faultSetup({
        through: (fetch) => async (input, init) => {
          await fetch(input, init);
          return Response.json(
            { code: 'upstream', message: 'The upstream answer was lost', status },
            { status },
          );
        },
      });
      const { error } = await settle(createPet.call(client));
      expect(error).toBeInstanceOf(InternalServerError);
      expect(attempts(store, createPet)).toBe(1);
      expect(created(store)).toBe(1);
      expectKeyHidden(error, logger);
    },
  );
});
