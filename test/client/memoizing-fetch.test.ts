import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientOptions } from '../../src/index.js';
import { START, settle, useFakeClock } from '../support/fake-clock.js';
import { DataCache } from '../support/next-fetch.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(START);
  vi.resetModules();
});
afterEach(() => {
  vi.useRealTimers();
});

/**
 * A client whose fetch is Next.js's within one render, over a fake store; a fresh copy of the
 * package each time, since the replay warning is given once per process.
 */
async function inRender(options: ClientOptions = {}) {
  const [{ PetStoreClient }, { setup, API_KEY, BASE_URL }] = await Promise.all([
    import('../../src/index.js'),
    import('./setup.js'),
  ]);
  const { store, logger } = setup();
  const cache = new DataCache();
  const render = cache.fetch(store.fetch);
  const debug = vi.fn<(message: string) => void>();
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: render,
    logger: { ...logger, debug, info: vi.fn() },
    ...options,
  });
  return { client, store, logger, debug, cache, render };
}

describe('every retry reaches the service through a memoizing fetch', () => {
  it('waits a 429 out as asked and retries it against the service', async () => {
    const { client, store, logger } = await inRender();
    store.injectFault({ status: 429, headers: { 'retry-after': '1' } });
    const { value, elapsed } = await settle(client.listPets(), 10);
    expect(value).toEqual([]);
    expect(store.requests.map((request) => request.status)).toEqual([429, 200]);
    expect(store.requests[1]?.receivedAt).toBe(START + 1_000);
    expect(elapsed).toBe(1_000);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('sends 1 + maxRetries requests for a lasting 500', async () => {
    const { client, store } = await inRender({ maxRetries: 3 });
    store.injectFault({ status: 500, times: 10 });
    const { error } = await settle(client.listPets(), 10);
    expect((error as Error).name).toBe('InternalServerError');
    expect(store.requests.map((request) => request.status)).toEqual([500, 500, 500, 500]);
  });

  it('does the same when Next’s fetch is the global one, as Next installs it', async () => {
    const { store, render } = await inRender();
    const { PetStoreClient } = await import('../../src/index.js');
    const { API_KEY, BASE_URL } = await import('./setup.js');
    vi.stubGlobal('fetch', render);
    try {
      const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL });
      store.injectFault({ status: 500, times: 10 });
      const { error } = await settle(client.listPets(), 10);
      expect((error as Error).name).toBe('InternalServerError');
      expect(store.requests).toHaveLength(3);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps identical first attempts in one render shared', async () => {
    const { client, store } = await inRender();
    const { error } = await settle(Promise.all([client.listPets(), client.listPets()]), 10);
    expect(error).toBeUndefined();
    expect(store.requests).toHaveLength(1);
  });

  it('sends a retry with the first attempt’s headers, and nothing added', async () => {
    const { client, store } = await inRender({ headers: { 'x-session': 'abc' } });
    store.injectFault({ status: 503, times: 1 });
    await settle(client.listPets({ limit: 2 }), 10);
    const [first, retry] = store.requests;
    expect(retry?.url).toBe(first?.url);
    expect(retry?.method).toBe('GET');
    expect(retry?.headers).toEqual(first?.headers);
  });
});

describe('a retry answered by an earlier response', () => {
  /** A fetch that answers every request with the first response it got: a cache that ignores everything. */
  function replaying(upstream: typeof fetch) {
    let first: Promise<Response> | undefined;
    return (input: Request | URL | string, init?: RequestInit) => {
      first ??= upstream(input, init);
      return first.then((response) => response.clone());
    };
  }

  it('warns once per process at warn, naming the likely cause, and says so in the attempt’s debug line', async () => {
    const { setup, API_KEY, BASE_URL } = await import('./setup.js');
    const { store } = setup();
    const { client, logger, debug } = await inRender({
      fetch: replaying(store.fetch),
      logLevel: 'debug',
      maxRetries: 2,
    });
    store.injectFault({ status: 500, times: 1 });
    const { error } = await settle(client.listPets(), 10);
    expect((error as Error).name).toBe('InternalServerError');
    expect(store.requests).toHaveLength(1);
    const id = store.requests[0]?.requestId;
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [warning] = logger.warn.mock.calls[0] ?? [];
    expect(warning).toContain(`request id ${id}`);
    expect(warning).toMatch(/never reached the service/);
    expect(warning).toMatch(/Next\.js request memoization/);
    const lines = debug.mock.calls.map(([line]) => line).filter((line) => line.includes('->'));
    expect(lines).toHaveLength(3);
    expect(lines[0]).not.toMatch(/not from the service/);
    expect(lines[1]).toMatch(/attempt 2, request id .*not from the service/);

    // Once per process: another client, another replayed retry, no second warning.
    const { PetStoreClient } = await import('../../src/index.js');
    const other = new PetStoreClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      fetch: replaying(store.fetch),
      logger: { warn: logger.warn },
    });
    store.injectFault({ status: 500, times: 1 });
    await settle(
      other.listPets().catch(() => undefined),
      10,
    );
    expect(store.requests).toHaveLength(2);
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });
});
