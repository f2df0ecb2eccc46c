import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import type { ClientOptions } from '../../src/index.js';
import { START, settle, useFakeClock } from '../support/fake-clock.js';
import { API_KEY, setup } from './setup.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(START);
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client on a plan of one request a minute, recording every wait it reports and when each call was sent. */
function onePerMinute() {
  const waits: RateLimitWait[] = [];
  const context = setup(
    // Calls here wait two windows of a minute in all, a little over the default's two minutes.
    { onWait: (wait) => waits.push(wait), maxQueueWait: 180_000 },
    { apiKeys: { [API_KEY]: { perMinute: 1, perDay: 100 } } },
  );
  return { ...context, waits };
}

describe('onWait', () => {
  it('hears of every wait a queued call takes, each once, adding up to the time it waited', async () => {
    const { client, store, waits } = onePerMinute();
    const calls = [client.listPets(), client.listPets(), client.createPet({ name: 'Rex', categoryId: 1 })];
    const { error } = await settle(Promise.all(calls), 100);
    expect(error).toBeUndefined();
    expect(store.requests.map((request) => request.status)).toEqual([200, 200, 201]);
    // The create waited for the first listPets to learn the budget, then for two resets behind it and
    // the second: reported once for each reason, the budget's length when the first answer showed the window.
    const createWaits = waits.filter((wait) => wait.operation === 'createPet');
    expect(createWaits.map((wait) => wait.reason)).toEqual(['probe', 'budget']);
    const sentAt = (store.requests[2]?.receivedAt ?? 0) - START;
    const reported = createWaits.reduce((sum, wait) => sum + wait.waitMs, 0);
    expect(reported).toBeLessThanOrEqual(sentAt);
    // The window's length, from the first answer's reset, is known to within a second.
    expect(sentAt - reported).toBeLessThanOrEqual(1_000);
  });

  it('hears of a retry after a 429 once, with the wait the service asked for, not again as a cooldown', async () => {
    const { client, store, waits } = onePerMinute();
    store.injectFault({ status: 429, headers: { 'Retry-After': '4' } });
    const { error, elapsed } = await settle(client.listPets(), 10);
    expect(error).toBeUndefined();
    expect(waits).toEqual([{ operation: 'listPets', waitMs: 4_000, reason: 'retry-after' }]);
    expect(elapsed).toBe(4_000);
  });

  it('hears of the cooldown once for each call held behind another call’s 429', async () => {
    const waits: RateLimitWait[] = [];
    const { client, store } = setup({ onWait: (wait) => waits.push(wait) });
    store.injectFault({ status: 429, headers: { 'Retry-After': '4' }, delay: 100 });
    const first = client.listPets();
    await vi.advanceTimersByTimeAsync(50);
    const held = client.createPet({ name: 'Rex', categoryId: 1 });
    await settle(Promise.allSettled([first, held]), 10);
    // Held at 50 ms behind the first request, out to learn the budget, then by its 429 until 4,100 ms.
    const createWaits = waits.filter((wait) => wait.operation === 'createPet');
    expect(createWaits.map((wait) => wait.reason)).toEqual(['probe', 'cooldown']);
    expect(createWaits.reduce((sum, wait) => sum + wait.waitMs, 0)).toBe(4_050);
    expect(waits.filter((wait) => wait.operation === 'listPets')).toEqual([
      { operation: 'listPets', waitMs: 4_000, reason: 'retry-after' },
    ]);
  });
});

describe('onWait after a 5xx', () => {
  it('hears the backoff before the retry', async () => {
    const waits: RateLimitWait[] = [];
    const { client, store } = setup({ onWait: (wait) => waits.push(wait) });
    store.injectFault({ status: 500 });
    await settle(client.listPets(), 100);
    expect(waits).toEqual([{ operation: 'listPets', waitMs: expect.any(Number), reason: 'backoff' }]);
  });
});

describe('onRateLimit, the removed name of onWait', () => {
  it('is refused as an unknown option', () => {
    const options: Record<string, unknown> = { onRateLimit: () => {} };
    expect(() => setup(options as ClientOptions)).toThrow(TypeError);
    expect(() => setup(options as ClientOptions)).toThrow(/Unknown PetStoreClient option "onRateLimit"/);
  });
});

describe('fake timers installed after the client was built', () => {
  it('still move its cooldown on: a 429 wait ends in fake time', async () => {
    vi.useRealTimers();
    // Built with the real clock, as a test file's top level builds it, before a test fakes time.
    const { client, store } = setup();
    useFakeClock();
    vi.setSystemTime(START);
    store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });

    const { value, error, elapsed } = await settle(client.listPets(), 50, 60_000);

    expect(error).toBeUndefined();
    expect(value).toEqual([]);
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(3_000);
  });
});
