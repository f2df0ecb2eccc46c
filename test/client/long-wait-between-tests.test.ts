import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient, RateLimitError } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

// docs/testing.md, "One client per test": the cooldown after a long Retry-After belongs to the client
// that met it, so a client built per test starts clear, while one shared by the suite keeps the guard.
const store = createFakePetStore();
const createClient = () =>
  new PetStoreClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
    maxRetryAfter: 10_000,
  });
const shared = createClient();

afterEach(() => {
  store.reset();
  vi.useRealTimers();
});

describe('a test that meets a long Retry-After', () => {
  it('fails at once with the RateLimitError of the wait it will not take', async () => {
    store.injectFault({ status: 429, headers: { 'Retry-After': '120' } });
    const error = await shared.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(120_000);
    expect(store.requests).toHaveLength(1);
  });

  it('leaves the client that met it cooling down, the fake reset or not: nothing is sent', async () => {
    const error = await shared.listPets().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'RefusedError', code: 'client_rate_limited' });
    expect(store.requests).toHaveLength(0);
  });

  it('leaves a client built for the next test free to send', async () => {
    expect(await createClient().listPets()).toEqual([]);
    expect(store.requests).toHaveLength(1);
  });

  it('lets a suite on fake time move past the cooldown with the clock', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const client = createClient();
    store.injectFault({ status: 429, headers: { 'Retry-After': '120' } });
    await expect(client.listPets()).rejects.toBeInstanceOf(RateLimitError);
    await expect(client.listPets()).rejects.toMatchObject({ code: 'client_rate_limited' });
    vi.advanceTimersByTime(120_000);
    expect(await client.listPets()).toEqual([]);
    expect(store.requests).toHaveLength(2);
  });
});
