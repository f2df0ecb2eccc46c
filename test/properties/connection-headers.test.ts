import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient, RequestValidationError } from '../../src/index.js';
import { API_KEY } from '../client/setup.js';
import { useFakeClock } from '../support/fake-clock.js';
import { propertyStore } from './support/calls.js';

// Taken before the timers are faked: it bounds, in real time, how long a call may stay pending.
const realSetTimeout = globalThis.setTimeout;

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** Headers that describe the connection or the framing of the message, which fetch owns. */
const name = fc.constantFrom(
  'Connection',
  'Content-Length',
  'Expect',
  'Host',
  'Keep-Alive',
  'TE',
  'Trailer',
  'Transfer-Encoding',
  'Upgrade',
);
const value = fc.constantFrom(
  'close',
  '0',
  '3',
  '1000',
  'chunked',
  '100-continue',
  'websocket',
  'evil.test',
  'x',
);

describe('per-call headers that belong to the connection, over real HTTP', () => {
  it('are rejected with RequestValidationError, or the call still succeeds', async () => {
    const store = propertyStore();
    const server = await store.listen();
    try {
      await fc.assert(
        fc.asyncProperty(name, value, fc.boolean(), async (headerName, headerValue, create) => {
          store.reset();
          const client = new PetStoreClient({
            apiKey: API_KEY,
            baseUrl: server.url,
            maxRetries: 0,
            logger: { warn: () => {} },
          });
          const options = { headers: { [headerName]: headerValue } };
          const call = create
            ? client.createPet({ name: 'Rex', categoryId: 1 }, options)
            : client.listPets({}, options);
          const outcome = await Promise.race([
            call.then(
              () => 'succeeded',
              (error: unknown) => (error instanceof RequestValidationError ? 'rejected' : String(error)),
            ),
            new Promise<string>((resolve) => realSetTimeout(() => resolve('still pending'), 1_000)),
          ]);
          expect(['succeeded', 'rejected']).toContain(outcome);
          if (outcome === 'rejected') expect(store.requests).toHaveLength(0);
        }),
        { numRuns: 60 },
      );
    } finally {
      await server.close();
    }
  });
});
