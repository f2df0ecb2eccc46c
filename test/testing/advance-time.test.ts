/**
 * advanceUntilSettled: stepping a runner's fake clock until a call settles, with real I/O between the
 * steps, whether the runner's step is asynchronous (vitest, Jest) or synchronous (node:test, Bun).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { advanceUntilSettled, createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

afterEach(() => {
  vi.useRealTimers();
});

const fakeTimers = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });

describe('advanceUntilSettled', () => {
  it('returns the value and the fake time a call took, and its error rather than rejecting', async () => {
    fakeTimers();
    const late = new Promise((resolve) => setTimeout(() => resolve('done'), 1_250));
    const resolved = await advanceUntilSettled(late, (ms) => vi.advanceTimersByTimeAsync(ms));
    const failing = new Promise((_, reject) => setTimeout(() => reject(new Error('no')), 300));
    const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
    const rejected = await advanceUntilSettled(failing, advance, { step: 100 });

    expect(resolved).toEqual({ value: 'done', error: undefined, elapsed: 1_250 });
    expect(rejected).toMatchObject({ value: undefined, error: new Error('no'), elapsed: 300 });
  });

  it('lets real I/O run between the steps of a synchronous advance, as node:test and Bun step', async () => {
    const store = createFakePetStore({ apiKeys: { [DEFAULT_API_KEY]: { perMinute: 1, perDay: 100 } } });
    const server = await store.listen();
    try {
      const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.url });
      await client.listPets();
      fakeTimers();
      // The window of one request a minute is spent: the client holds this call until it resets.
      const { value, error, elapsed } = await advanceUntilSettled(client.listPets(), (ms) => {
        vi.advanceTimersByTime(ms);
      });

      expect(error).toBeUndefined();
      expect(value).toEqual([]);
      // The window resets a minute after the first request, rounded up to whole seconds.
      expect(elapsed).toBeGreaterThan(50_000);
      expect(elapsed).toBeLessThanOrEqual(62_000);
    } finally {
      vi.useRealTimers();
      await server.close();
    }
  });

  it('throws when the call is still pending after limit of fake time', async () => {
    fakeTimers();
    const never = new Promise(() => {});
    await expect(
      advanceUntilSettled(never, (ms) => vi.advanceTimersByTimeAsync(ms), { limit: 1_000 }),
    ).rejects.toThrow('The call was still pending after 1000 ms of fake time');
  });

  it.for([{ step: 0 }, { step: -5 }, { step: Number.NaN }, { limit: Number.POSITIVE_INFINITY }])(
    'refuses %o',
    async (options) => {
      await expect(advanceUntilSettled(Promise.resolve(1), () => undefined, options)).rejects.toThrow(
        RangeError,
      );
    },
  );
});
