import { vi } from 'vitest';
import { type Fetch, PetStoreClient } from '../../../src/index.js';
import { API_KEY } from '../../client/setup.js';
import { watchedLogger } from './leaks.js';

/** A client of the service at `baseUrl` over real HTTP, logging at `debug` and counting the attempts it makes. */
export function httpClient(baseUrl: string) {
  const fetch = vi.fn<Fetch>((input, init) => globalThis.fetch(input, init));
  const logger = watchedLogger();
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl,
    fetch,
    logger,
    logLevel: 'debug',
    maxRetries: 2,
  });
  return { client, logger, attempts: () => fetch.mock.calls.length };
}
