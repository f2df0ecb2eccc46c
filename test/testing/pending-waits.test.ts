import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { waitRegistry } from '../../src/shared/pending-waits.js';
import { realTurn } from '../../src/testing/advance-time.js';
import { advanceUntilSettled, createFakePetStore, pendingWaits } from '../../src/testing/index.js';
import { watchFakeClock } from '../../src/testing/pending-waits.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { useFakeClock } from '../support/fake-clock.js';

/** Lets real I/O run until `done` holds (the fake clock stays where it is). */
async function untilReal(done: () => boolean): Promise<void> {
  for (let turn = 0; turn < 200 && !done(); turn++) await realTurn();
}

function setUp() {
  const store = createFakePetStore();
  const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: store.baseUrl, fetch: store.fetch });
  return { store, client };
}

describe('a call held by a fake clock nobody steps', () => {
  beforeEach(useFakeClock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is listed by pendingWaits(): the client waiting out a Retry-After, and for how long', async () => {
    const { store, client } = setUp();
    store.injectFault({ status: 429, headers: { 'Retry-After': '30' } });
    const call = client.listPets();
    await untilReal(() => pendingWaits().length > 0);

    expect(pendingWaits()).toEqual([
      {
        reason: 'a client, waiting out the Retry-After: 30 the fake sent to GET /pets',
        ms: 30_000,
        waitedMs: 0,
      },
    ]);
    await advanceUntilSettled(call, (ms) => vi.advanceTimersByTimeAsync(ms));
    expect(pendingWaits()).toEqual([]);
  });

  it('is listed by pendingWaits(): the fake holding its answer for an injected delay', async () => {
    const { store, client } = setUp();
    store.injectFault({ delay: 5_000, match: { path: '/pets' } });
    const call = client.listPets();
    await untilReal(() => pendingWaits().length > 0);

    expect(pendingWaits()).toEqual([{ reason: 'the fake, holding GET /pets', ms: 5_000, waitedMs: 0 }]);
    await vi.advanceTimersByTimeAsync(5_000);
    await expect(call).resolves.toEqual([]);
  });

  it('is named in a warning once a second of real time passed without the fake clock moving', async () => {
    const registry = waitRegistry();
    const installed = registry.onWait;
    delete registry.onWait;
    const checks: (() => void)[] = [];
    watchFakeClock((check) => checks.push(check));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const { store, client } = setUp();
      store.injectFault({ status: 503, headers: { 'Retry-After': '20' }, times: 1 });
      store.injectFault({ delay: 4_000, match: { method: 'POST' } });
      const listed = client.listPets();
      await untilReal(() => checks.length === 1);
      // The clock moved meanwhile for this one: no warning.
      const created = client.createPet({ name: 'Rex', categoryId: 1 });
      await untilReal(() => checks.length === 2);
      checks[0]?.();
      expect(warn).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(20_000);
      checks[1]?.();

      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0]?.[0]).toBe(
        'animal-store-sdk/testing: the client, before retrying waits 20000 ms on a fake clock that has not moved for 1000 ms of real time. Step the clock (vi.advanceTimersByTimeAsync, jest.advanceTimersByTimeAsync) or await the call with advanceUntilSettled().',
      );
      await advanceUntilSettled(Promise.all([listed, created]), (ms) => vi.advanceTimersByTimeAsync(ms));
    } finally {
      warn.mockRestore();
      registry.onWait = installed;
    }
  });

  it('is named when advanceUntilSettled gives up', async () => {
    const { store, client } = setUp();
    store.injectFault({ delay: 60_000 });
    const call = client.listPets();
    await untilReal(() => pendingWaits().length > 0);

    await expect(advanceUntilSettled(call, () => {}, { step: 50, limit: 100 })).rejects.toThrow(
      'The call was still pending after 100 ms of fake time; pending waits: the fake, holding GET /pets: waited 0 of 60000 ms',
    );
    await advanceUntilSettled(call, (ms) => vi.advanceTimersByTimeAsync(ms));
  });
});
