import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { AuthenticationError, InternalServerError, PetStoreClient, PetStoreError } from '../../src/index.js';
import { createInProcessRateLimitStore } from '../../src/store/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { settle, startFakeClock } from '../support/fake-clock.js';
import { BASE_URL } from './setup.js';

const KEYS = ['sk-rotating-one-0123456789', 'sk-rotating-two-0123456789', 'sk-rotating-three-0123456789'];

/** A store that knows every key of {@link KEYS}, and a key function that hands them out in turn. */
function rotatingSetup() {
  const store = createFakePetStore({
    baseUrl: BASE_URL,
    apiKeys: Object.fromEntries(KEYS.map((key) => [key, 'pro' as const])),
  });
  let calls = 0;
  const apiKey = vi.fn(async () => KEYS[calls++ % KEYS.length] as string);
  const logger = { warn: vi.fn<(message: string) => void>(), debug: vi.fn<(message: string) => void>() };
  return { store, apiKey, logger };
}

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('an apiKey function', () => {
  it('is called before each attempt, and each attempt carries the key it returned', async () => {
    const { store, apiKey, logger } = rotatingSetup();
    const client = new PetStoreClient({ apiKey, baseUrl: BASE_URL, fetch: store.fetch, logger });
    store.injectFault({ status: 503 });

    const { value, error } = await settle(client.listPets());

    expect(error).toBeUndefined();
    expect(value).toEqual([]);
    expect(apiKey).toHaveBeenCalledTimes(2);
    expect(store.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${KEYS[0]}`,
      `Bearer ${KEYS[1]}`,
    ]);
  });

  it('may return the key itself rather than a promise', async () => {
    const { store } = rotatingSetup();
    const client = new PetStoreClient({
      apiKey: () => KEYS[2] as string,
      baseUrl: BASE_URL,
      fetch: store.fetch,
    });
    await settle(client.listPets());
    expect(store.requests[0]?.headers.authorization).toBe(`Bearer ${KEYS[2]}`);
  });

  it('keeps every key it returned out of errors, serialized errors and log lines', async () => {
    const { store, apiKey, logger } = rotatingSetup();
    const client = new PetStoreClient({
      apiKey,
      baseUrl: BASE_URL,
      fetch: store.fetch,
      logger,
      logLevel: 'debug',
    });
    // Each attempt is answered with an echo of the key it carried.
    for (const key of KEYS) {
      store.injectFault({
        status: 503,
        headers: { 'X-Echo': `Bearer ${key}` },
        body: { code: 'unavailable', message: `down for ${key}`, status: 503 },
      });
    }

    const { error } = await settle(
      client.request({ method: 'GET', path: `/store/orders`, query: { key: KEYS[0] } }),
    );

    expect(error).toBeInstanceOf(InternalServerError);
    expect(apiKey).toHaveBeenCalledTimes(3);
    const written = [...logger.warn.mock.calls, ...logger.debug.mock.calls].map(([line]) => line);
    expect(written.length).toBeGreaterThan(3);
    const seen = [
      String(error),
      (error as Error).message,
      (error as Error).stack ?? '',
      JSON.stringify(error),
      JSON.stringify((error as InternalServerError).body),
      JSON.stringify(Object.fromEntries((error as InternalServerError).headers)),
      ...written,
    ].join('\n');
    expect(seen).toContain('[redacted]');
    for (const key of KEYS) expect(seen).not.toContain(key);
  });

  it('that throws fails the call with a PetStoreError and sends nothing', async () => {
    const { store } = rotatingSetup();
    const failure = new Error('the session expired');
    const client = new PetStoreClient({
      apiKey: () => Promise.reject(failure),
      baseUrl: BASE_URL,
      fetch: store.fetch,
    });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error).toMatchObject({ message: expect.stringMatching(/apiKey function failed/), cause: failure });
    expect(store.requests).toHaveLength(0);
  });

  it.each([
    ['an empty string', ''],
    ['a key with a line break', 'sk-a\r\nX-Evil: 1'],
    ['no string at all', 42],
  ])('that returns %s fails the call with a PetStoreError and sends nothing', async (_, key) => {
    const { store } = rotatingSetup();
    const client = new PetStoreClient({ apiKey: () => key as string, baseUrl: BASE_URL, fetch: store.fetch });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(PetStoreError);
    expect((error as Error).message).toMatch(/key the apiKey function returned/);
    expect(store.requests).toHaveLength(0);
  });

  it('keeps one cooldown through a rotation: a 429 on one key holds the request with the next', async () => {
    const { store, apiKey } = rotatingSetup();
    const waits: RateLimitWait[] = [];
    const client = new PetStoreClient({
      apiKey,
      baseUrl: BASE_URL,
      fetch: store.fetch,
      maxRetries: 0,
      onWait: (wait) => waits.push(wait),
    });
    store.injectFault({ status: 429, headers: { 'Retry-After': '30' } });
    const refusedAt = Date.now();
    await settle(client.listPets());

    const next = await settle(client.listPets());

    expect(next.error).toBeUndefined();
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(30_000);
    expect(waits).toMatchObject([{ operation: 'listPets', reason: 'cooldown' }]);
    expect(waits[0]?.waitMs).toBeGreaterThan(29_000);
    expect(store.requests.map((request) => request.headers.authorization)).toEqual([
      `Bearer ${KEYS[0]}`,
      `Bearer ${KEYS[1]}`,
    ]);
  });

  it('shares one budget with the clients given the same function and store, and none with another function', async () => {
    const { store, apiKey } = rotatingSetup();
    const rateLimitStore = createInProcessRateLimitStore();
    const waits: string[] = [];
    const options = { baseUrl: BASE_URL, fetch: store.fetch, maxRetries: 0, rateLimitStore };
    const client = (name: string, key: () => Promise<string>) =>
      new PetStoreClient({
        ...options,
        apiKey: key,
        onWait: ({ reason }) => waits.push(`${name}: ${reason}`),
      });
    const first = client('first', apiKey);
    const second = client('second', apiKey);
    const stranger = client('stranger', async () => KEYS[2] as string);
    store.injectFault({ status: 429, headers: { 'Retry-After': '20' }, times: 1 });
    await settle(first.listPets());

    const [shared, other] = await Promise.all([settle(second.listPets()), settle(stranger.listPets())]);

    expect(shared.error).toBeUndefined();
    expect(other.error).toBeUndefined();
    expect(waits).toEqual(['second: cooldown']);
  });
});

describe('apiKey: null', () => {
  it('sends no Authorization header, for a backend of your own that adds the key', async () => {
    const store = createFakePetStore({ baseUrl: BASE_URL });
    const client = new PetStoreClient({ apiKey: null, baseUrl: BASE_URL, fetch: store.fetch, maxRetries: 0 });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(store.requests).toHaveLength(1);
    expect(store.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('is not the same as no key at all, which still fails at construction', () => {
    vi.stubEnv('PETSTORE_API_KEY', '');
    expect(() => new PetStoreClient({ baseUrl: BASE_URL })).toThrow(/no API key/);
    vi.unstubAllEnvs();
  });
});
