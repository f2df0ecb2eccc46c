import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { createInProcessRateLimitStore, type RateLimitStore } from '../../src/store/index.js';
import { createFakePetStore, type FakePetStore } from '../../src/testing/index.js';
import { START, settle, startFakeClock } from '../support/fake-clock.js';

const BASE_URL = 'http://animal-store.test/v1';
const KEY = 'sk-shared-key-0001';
const OTHER_KEY = 'sk-other-key-0002';

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** A Free-plan store (60 a minute), and every status it answered. */
function freeStore(options: { clockOffsetMs?: number } = {}) {
  const offset = options.clockOffsetMs ?? 0;
  const store = createFakePetStore({
    baseUrl: BASE_URL,
    apiKeys: { [KEY]: 'free', [OTHER_KEY]: 'free' },
    now: () => Date.now() + offset,
  });
  const statuses: number[] = [];
  const fetch = async (input: Request | URL | string, init?: RequestInit) => {
    const response = await store.fetch(input, init);
    statuses.push(response.status);
    if (options.clockOffsetMs === undefined) return response;
    // The service stamps its responses with its own clock, as HTTP servers do.
    const headers = new Headers(response.headers);
    headers.set('date', new Date(Date.now() + offset).toUTCString());
    return new Response(response.body, { status: response.status, headers });
  };
  return { store, statuses, fetch };
}

function client(
  fetch: FakePetStoreFetch,
  options: { apiKey?: string; rateLimitStore?: RateLimitStore; pacingBurst?: number } = {},
) {
  return new PetStoreClient({
    apiKey: KEY,
    baseUrl: BASE_URL,
    fetch,
    logger: { warn: () => {} },
    ...options,
  });
}
type FakePetStoreFetch = FakePetStore['fetch'];

async function all<T>(calls: Promise<T>[]) {
  return settle(Promise.allSettled(calls), 250);
}

describe('rateLimitStore', () => {
  it('gives every client its own budget by default, so two clients on one key collide', async () => {
    const { fetch, statuses } = freeStore();
    const [a, b] = [client(fetch), client(fetch)];
    await all([
      ...Array.from({ length: 45 }, () => a.listPets()),
      ...Array.from({ length: 45 }, () => b.listPets()),
    ]);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThan(0);
  });

  it('shares one budget between clients given one in-process store: 90 calls, no 429, two windows', async () => {
    const { fetch, statuses } = freeStore();
    const rateLimitStore = createInProcessRateLimitStore();
    // The second window's 30 calls all go at its reset (pacingBurst: 1), once the request that
    // learns its budget is answered.
    const options = { rateLimitStore, pacingBurst: 1 };
    const [a, b] = [client(fetch, options), client(fetch, options)];
    const { value, elapsed } = await all([
      ...Array.from({ length: 45 }, () => a.listPets()),
      ...Array.from({ length: 45 }, () => b.listPets()),
    ]);
    expect(value?.every((result) => result.status === 'fulfilled')).toBe(true);
    expect(statuses).toHaveLength(90);
    expect(statuses).not.toContain(429);
    expect(elapsed).toBeGreaterThanOrEqual(60_000 - 1_000);
    expect(elapsed).toBeLessThan(2 * 60_000);
  });

  it('shares the cooldown after a 429 between the clients of one key', async () => {
    const { store, fetch } = freeStore();
    const rateLimitStore = createInProcessRateLimitStore();
    const [a, b] = [client(fetch, { rateLimitStore }), client(fetch, { rateLimitStore })];
    store.injectFault({ status: 429, headers: { 'Retry-After': '20' } });
    const first = a.listPets({}, { maxRetries: 0 }).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(10);
    const { elapsed } = await settle(b.listPets());
    expect(elapsed).toBeGreaterThanOrEqual(19_000);
    expect(await first).toMatchObject({ status: 429 });
  });

  it('keeps other keys apart within one store', async () => {
    const { store, fetch } = freeStore();
    const rateLimitStore = createInProcessRateLimitStore();
    store.injectFault({ status: 429, headers: { 'Retry-After': '30' } });
    await client(fetch, { rateLimitStore })
      .listPets({}, { maxRetries: 0 })
      .catch(() => {});
    const { elapsed, error } = await settle(client(fetch, { apiKey: OTHER_KEY, rateLimitStore }).listPets());
    expect(error).toBeUndefined();
    expect(elapsed).toBeLessThan(1_000);
  });

  it.each([
    ['ahead of', -60_000],
    ['behind', 60_000],
  ])(
    'paces on the service clock: a host a minute %s the service gets no 429 and no needless wait',
    async (_, offset) => {
      const { fetch, statuses } = freeStore({ clockOffsetMs: offset });
      // The second window's calls go after its reset, within the default bounds.
      const paced = client(fetch);
      const { value, elapsed } = await all(Array.from({ length: 75 }, () => paced.listPets()));
      expect(value?.every((result) => result.status === 'fulfilled')).toBe(true);
      expect(statuses).toHaveLength(75);
      expect(statuses).not.toContain(429);
      expect(elapsed).toBeLessThan(2 * 60_000);
    },
  );

  it('works with a store that answers asynchronously, as a networked one does', async () => {
    const { fetch, statuses } = freeStore();
    const inner = createInProcessRateLimitStore();
    const rateLimitStore: RateLimitStore = {
      acquire: async (scope, request) => inner.acquire(scope, request),
      release: async (scope, lease, outcome) => inner.release(scope, lease, outcome),
    };
    // The last calls wait a window's reset, read in whole seconds: a little over a minute.
    const paced = client(fetch, { rateLimitStore });
    const aborted = new AbortController();
    const calls = Array.from({ length: 70 }, (_, i) =>
      paced.listPets({}, i === 65 ? { signal: aborted.signal } : {}),
    );
    aborted.abort();
    const { value } = await all(calls);
    expect(value?.filter((result) => result.status === 'rejected')).toHaveLength(1);
    expect(statuses).toHaveLength(69);
    expect(statuses).not.toContain(429);
  });

  it("admits a call by the store's reset, which another client read, not by its own later reading", async () => {
    // The service's clock runs a minute ahead: a window it opens at 12:01:00.100 resets at 12:01:10.100,
    // sent as 12:01:11. Client a reads it 100 ms into the second, client b 950 ms in (its reading
    // alone would place the reset at 11.95 s from the start).
    const store = createFakePetStore({
      baseUrl: BASE_URL,
      apiKeys: { [KEY]: { perMinute: 2, perDay: 1_000, window: 10_000 } },
      now: () => Date.now() + 60_000,
    });
    const statuses: number[] = [];
    const fetch = async (input: Request | URL | string, init?: RequestInit) => {
      const response = await store.fetch(input, init);
      statuses.push(response.status);
      const headers = new Headers(response.headers);
      headers.set('date', new Date(Date.now() + 60_000).toUTCString());
      return new Response(response.body, { status: response.status, headers });
    };
    const rateLimitStore = createInProcessRateLimitStore();
    const [a, b] = [
      client(fetch, { rateLimitStore, pacingBurst: 1 }),
      client(fetch, { rateLimitStore, pacingBurst: 1 }),
    ];
    vi.setSystemTime(START + 100);
    await a.listPets();
    vi.setSystemTime(START + 950);
    await b.listPets();
    vi.setSystemTime(START + 10_700);

    const { error, elapsed } = await settle(b.listPets({}, { callTimeout: 1_000 }), 50);
    expect(error).toBeUndefined();
    expect(elapsed).toBeLessThanOrEqual(1_000);
    expect(statuses).not.toContain(429);
  });

  it('refuses an object that is not a store when the client is constructed', () => {
    expect(
      () => new PetStoreClient({ apiKey: KEY, baseUrl: BASE_URL, rateLimitStore: {} as RateLimitStore }),
    ).toThrow(/rateLimitStore: Expected an object with acquire\(\) and release\(\)/);
  });
});
