/**
 * Testing an application against the fake Animal Store.
 *
 * The code under test is app/adoption.ts: functions that take a PetStoreClient. The test runs
 * them with a real client whose requests msw answers from `createFakePetStore()`, in process, so
 * the whole path (validation, headers, retries, rate-limit pacing, error classes) is the one
 * production takes. In an application the imports are 'animal-store-sdk' and
 * 'animal-store-sdk/testing'.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, PetStoreClient } from '../src/index.js';
import { createFakePetStore, fakePetStoreConstants, samplePets } from '../src/testing/index.js';
import { admit, adoptionBoard, census } from './app/adoption.js';

// A key with a tiny plan, to reach the rate limit in a few calls.
const SMALL_PLAN_KEY = 'three-a-minute';

// One store for the file: five sample pets (ids 1 to 5; Rex and Luna are available), the default
// Free key, and the small-plan key.
const store = createFakePetStore({
  pets: samplePets(5),
  apiKeys: { ...fakePetStoreConstants.defaultApiKeys, [SMALL_PLAN_KEY]: { perMinute: 3, perDay: 100 } },
});
const server = setupServer(...store.handlers);

// 'error' fails any request the store does not handle, so nothing reaches a real network.
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => {
  // Back to the seeded pets, with no recorded requests, rate-limit windows or injected faults.
  store.reset();
  server.resetHandlers();
  vi.useRealTimers();
});
afterAll(() => server.close());

/** The client the application would build, pointed at the fake (`http://animal-store.test/v1`). */
function createClient(options: ClientOptions = {}): PetStoreClient {
  return new PetStoreClient({
    apiKey: fakePetStoreConstants.defaultApiKey,
    baseUrl: store.baseUrl,
    ...options,
  });
}

/**
 * Fakes the timers and the clock; the store's default clock reads Date.now(), so it follows. Retry
 * backoff, Retry-After and rate-limit windows then take no real time.
 */
function useFakeClock() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
}

describe('adoption board', () => {
  it('lists the available animals by name', async () => {
    const board = await adoptionBoard(createClient());

    expect(board).toEqual({
      state: 'open',
      pets: [
        { id: 4, name: 'Luna', categoryId: 1, status: 'available' },
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      ],
    });
  });

  it('shows the animals of a store seeded for this test alone', async () => {
    const shelter = createFakePetStore({
      pets: [
        { id: 10, name: 'Pixel', categoryId: 2, status: 'available' },
        { id: 11, name: 'Waffles', categoryId: 2, status: 'sold' },
      ],
    });
    // Handlers added with use() take precedence until resetHandlers() in afterEach.
    server.use(...shelter.handlers);

    const board = await adoptionBoard(createClient());

    expect(board).toEqual({
      state: 'open',
      pets: [{ id: 10, name: 'Pixel', categoryId: 2, status: 'available' }],
    });
  });

  it('is "down" when the service keeps answering 503, after the client retried twice', async () => {
    useFakeClock();
    store.injectFault({ status: 503, times: Number.POSITIVE_INFINITY });

    const board = adoptionBoard(createClient());
    // Runs the retry backoff on the fake clock.
    await vi.runAllTimersAsync();

    expect(await board).toEqual({ state: 'down' });
    expect(store.requests).toHaveLength(3);
  });

  it('opens after a single 503: the client retries it without the app noticing', async () => {
    useFakeClock();
    store.injectFault({ status: 503 });

    const board = adoptionBoard(createClient());
    await vi.runAllTimersAsync();

    expect(await board).toMatchObject({ state: 'open' });
    expect(store.requests).toHaveLength(2);
  });

  it('waits out a 429 with a short Retry-After, then opens', async () => {
    useFakeClock();
    store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });

    const board = adoptionBoard(createClient());
    await vi.runAllTimersAsync();

    expect(await board).toMatchObject({ state: 'open' });
    expect(store.requests).toHaveLength(2);
    const [refused, retried] = store.requests;
    expect(retried?.receivedAt).toBeGreaterThanOrEqual((refused?.receivedAt ?? 0) + 2_000);
  });

  it('is "busy" at once when the 429 asks for a longer wait than the client accepts', async () => {
    store.injectFault({ status: 429, headers: { 'Retry-After': '120' } });

    const board = await adoptionBoard(createClient());

    // maxRetryAfter defaults to 60 s: the client does not retry, and says how long to wait.
    expect(board).toEqual({ state: 'busy', retryInMs: 120_000 });
    expect(store.requests).toHaveLength(1);
  });
});

describe('admitting an animal', () => {
  it('sends one POST /pets with the bearer key and the trimmed name', async () => {
    const pet = await admit(createClient(), { name: '  Biscuit ', categoryId: 2 });

    expect(pet).toEqual({ id: 6, name: 'Biscuit', categoryId: 2, status: 'available' });
    expect(store.requests).toHaveLength(1);
    const [request] = store.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/pets',
      body: { name: 'Biscuit', categoryId: 2, status: 'available' },
    });
    expect(request?.headers.authorization).toBe(`Bearer ${fakePetStoreConstants.defaultApiKey}`);
    // The store's state changed as the real service's would.
    expect(store.pets).toContainEqual(pet);
  });
});

describe('census', () => {
  it('counts each status', async () => {
    expect(await census(createClient())).toEqual({ available: 2, pending: 2, sold: 1 });
    expect(store.requests.map((request) => request.url)).toEqual([
      `${store.baseUrl}/pets?limit=100&status=available`,
      `${store.baseUrl}/pets?limit=100&status=pending`,
      `${store.baseUrl}/pets?limit=100&status=sold`,
    ]);
  });

  it('on a 3-a-minute plan, a second census waits for the next window instead of being refused', async () => {
    useFakeClock();
    const onWait = vi.fn();
    // A census wants the window's whole budget at its reset: with the default burst (a quarter of 3
    // requests, one) the other two would be spread over the next minute, past the call's bound.
    const client = createClient({ apiKey: SMALL_PLAN_KEY, onWait, pacingBurst: 1 });

    // The first census spends the window: its 3 calls get through at once.
    expect(await census(client)).toEqual({ available: 2, pending: 2, sold: 1 });
    expect(client.rateLimit?.remaining).toBe(0);

    // The client knows the window is spent, so it holds the second census's calls.
    let finished = false;
    const second = census(client).then((counts) => {
      finished = true;
      return counts;
    });
    await vi.advanceTimersByTimeAsync(59_000);
    expect(finished).toBe(false);
    expect(store.requests).toHaveLength(3);
    expect(onWait).toHaveBeenCalledWith(expect.objectContaining({ reason: 'budget' }));

    // The window resets a minute after its first request (the header counts whole seconds).
    await vi.advanceTimersByTimeAsync(2_000);
    expect(await second).toEqual({ available: 2, pending: 2, sold: 1 });
    const [opening] = store.requests;
    const later = store.requests.slice(3);
    expect(later).toHaveLength(3);
    for (const request of later) {
      expect(request.receivedAt).toBeGreaterThanOrEqual((opening?.receivedAt ?? 0) + 60_000);
    }
  });
});
