import { afterEach, beforeEach, vi } from 'vitest';
import { type ClientOptions, type Fetch, PetStoreClient } from '../../../src/index.js';
import { createFakePetStore, type FakePetStoreOptions } from '../../../src/testing/index.js';
import { API_KEY, BASE_URL } from '../../client/setup.js';
import { startFakeClock } from '../../support/fake-clock.js';
import { watchConsole, watchedLogger } from './leaks.js';

/** Runs every test of the file on the fake clock with the console watched. */
export function useFaultHarness(): void {
  beforeEach(() => {
    startFakeClock();
    watchConsole();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });
}

/** The one animal every store starts with, so `getPet(1)` finds it. */
export const REX = { id: 1, name: 'Rex', categoryId: 1, status: 'available' } as const;

export interface FaultSetupOptions {
  readonly client?: ClientOptions;
  readonly store?: Partial<FakePetStoreOptions>;
  /** Puts something between the client and the store's fetch. */
  readonly through?: (storeFetch: Fetch) => Fetch;
}

/**
 * A fake store holding {@link REX}, and a client logging every line at `debug` to a watched logger,
 * reaching the store through `store.fetch`.
 */
export function faultSetup({
  client: clientOptions = {},
  store: storeOptions = {},
  through,
}: FaultSetupOptions = {}) {
  const store = createFakePetStore({
    baseUrl: BASE_URL,
    apiKeys: { [API_KEY]: 'pro' },
    pets: [REX],
    ...storeOptions,
  });
  const logger = watchedLogger();
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: through === undefined ? store.fetch : through(store.fetch),
    logger,
    logLevel: 'debug',
    ...clientOptions,
  });
  return { store, client, logger };
}
