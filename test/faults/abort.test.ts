import { describe, expect, it, vi } from 'vitest';
import { APIUserAbortError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import {
  attempts,
  created,
  createPet,
  IDEMPOTENT,
  listPets,
  matching,
  OPERATIONS,
} from './support/operations.js';

useFaultHarness();

const reasons = [
  ['the default reason', undefined],
  ['a reason of its own', new Error('The user left the page')],
  // What `AbortSignal.timeout()` aborts with: named as ky's timeout, and still the caller's abort.
  ['a timeout’s reason', new DOMException('The operation timed out.', 'TimeoutError')],
] as const;

describe.each(OPERATIONS)('aborting $name', (operation) => {
  it.each(reasons)(
    'mid-request, with %s, rejects with APIUserAbortError and sends nothing more',
    async (_, reason) => {
      const { client, store, logger } = faultSetup();
      store.injectFault({ match: matching(operation), delay: 10_000 });
      const controller = new AbortController();
      const pending = settle(operation.call(client, { signal: controller.signal }));
      await vi.advanceTimersByTimeAsync(100);
      controller.abort(reason);
      const { error, elapsed } = await pending;
      expect(error).toBeInstanceOf(APIUserAbortError);
      // The signal's reason is kept, the caller's own or the runtime's AbortError.
      expect((error as Error).cause).toBe(controller.signal.reason);
      if (reason) expect((error as Error).cause).toBe(reason);
      else expect((error as Error).cause).toMatchObject({ name: 'AbortError' });
      expect(elapsed).toBeLessThan(1_000);
      expect(attempts(store, operation)).toBe(1);
      expect(created(store)).toBe(0);
      expectKeyHidden(error, logger);
    },
  );

  it('while waiting to retry after a 429 rejects at once and sends nothing more', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ match: matching(operation), status: 429, headers: { 'Retry-After': '30' } });
    const controller = new AbortController();
    const pending = settle(operation.call(client, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1_000);
    controller.abort();
    const { error, elapsed } = await pending;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe(controller.signal.reason);
    expect(elapsed).toBeLessThan(2_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(attempts(store, operation)).toBe(1);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });

  it('while held by the cooldown of an earlier 429 rejects without a request', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '30' } });
    const first = settle(client.listPets({ limit: 1 }));
    await vi.advanceTimersByTimeAsync(100);
    const controller = new AbortController();
    const held = settle(operation.call(client, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1_000);
    const reason = new Error('The user left the page');
    controller.abort(reason);
    const { error } = await held;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect((error as Error).cause).toBe(reason);
    expect(attempts(store, operation)).toBe(operation === listPets ? 1 : 0);
    expect((await first).error).toBeUndefined();
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });

  it('leaves the client able to serve the next call at once', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ match: matching(operation), delay: 10_000 });
    const controller = new AbortController();
    const aborted = settle(operation.call(client, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect((await aborted).error).toBeInstanceOf(APIUserAbortError);
    const { error, elapsed } = await settle(operation.call(client));
    expect(error).toBeUndefined();
    expect(elapsed).toBeLessThan(1_000);
    expect(attempts(store, operation)).toBe(2);
    expectKeyHidden(error, logger);
  });
});

describe.each(IDEMPOTENT)('aborting $name while it waits to retry after a 503', (operation) => {
  it('rejects with APIUserAbortError before the next attempt', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ match: matching(operation), status: 503, headers: { 'Retry-After': '20' } });
    const controller = new AbortController();
    const pending = settle(operation.call(client, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(5_000);
    controller.abort();
    const { error } = await pending;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(attempts(store, operation)).toBe(1);
    expectKeyHidden(error, logger);
  });
});

describe('aborting a createPet the service already applied', () => {
  it('rejects with APIUserAbortError and leaves exactly one new pet', async () => {
    const { client, store, logger } = faultSetup({
      through: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        // As fetch does: the init's signal over the Request's.
        const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
        await new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
        return response;
      },
    });
    const controller = new AbortController();
    const pending = settle(createPet.call(client, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    const { error } = await pending;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(attempts(store, createPet)).toBe(1);
    expect(created(store)).toBe(1);
    expectKeyHidden(error, logger);
  });
});
