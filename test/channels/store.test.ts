/**
 * A shared rate-limit store that stops answering and comes back, as a subscriber to the store
 * channel hears it: once when the process starts pacing alone, once when the store answers again.
 */
import { expect, it, vi } from 'vitest';
import { createInProcessRateLimitStore, type RateLimitStore, withFallback } from '../../src/store/index.js';
import { API_KEY, BASE_URL, setup } from '../client/setup.js';
import { recordEachTest } from './support/recorder.js';

const recording = recordEachTest();

/** A shared store whose backend can be switched off; its error names the key, as a careless one might. */
function switchableStore() {
  const backend = createInProcessRateLimitStore();
  let down = false;
  const check = (apiKey: string) => {
    if (down) throw new Error(`connection refused while asking about ${apiKey}`);
  };
  const store: RateLimitStore = {
    acquire(scope, request) {
      check(scope.apiKey);
      return backend.acquire(scope, request);
    },
    release(scope, lease, outcome) {
      check(scope.apiKey);
      return backend.release(scope, lease, outcome);
    },
  };
  return { store, setDown: (value: boolean) => (down = value) };
}

it('hears the fallback once per outage and the return once, with no API key', async () => {
  const { store, setDown } = switchableStore();
  const { client } = setup({
    rateLimitStore: withFallback(store, { name: 'Postgres', share: 0.5, retryInterval: 1_000 }),
    logLevel: 'off',
  });
  await client.listPets();
  setDown(true);
  await client.listPets();
  await client.listPets();
  expect(recording.current.of('store')).toEqual([
    {
      event: 'fallback',
      store: 'Postgres',
      baseUrl: `${BASE_URL}/`,
      share: 0.5,
      reason: 'connection refused while asking about [redacted]',
    },
  ]);

  setDown(false);
  vi.advanceTimersByTime(1_000);
  await client.listPets();

  expect(recording.current.of('store')).toEqual([
    expect.objectContaining({ event: 'fallback' }),
    { event: 'return', store: 'Postgres', baseUrl: `${BASE_URL}/` },
  ]);
  expect(recording.current.json()).not.toContain(API_KEY);
});
