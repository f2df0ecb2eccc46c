import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  InternalServerError,
  RateLimitError,
  RefusedError,
} from '../../src/index.js';
import { settle, useFakeClock } from '../support/fake-clock.js';
import { setup } from './setup.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12, 0, 0));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('429 handling', () => {
  it('waits for Retry-After in seconds, then succeeds', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'retry-after': '3' } });
    const { value, elapsed } = await settle(client.listPets());
    expect(value).toEqual([]);
    expect(store.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    expect(elapsed).toBeLessThan(3500);
  });

  it('waits until an HTTP-date in Retry-After', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'retry-after': new Date(Date.now() + 5000).toUTCString() } });
    const { elapsed, error } = await settle(client.listPets());
    expect(error).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(5000);
    expect(elapsed).toBeLessThan(5500);
  });

  it('retries a createPet refused with 429 and creates the pet exactly once', async () => {
    const { client, store } = setup();
    store.injectFault({
      match: { method: 'POST', path: '/pets' },
      status: 429,
      headers: { 'retry-after': '1' },
    });
    const { value } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(value?.name).toBe('Rex');
    expect(store.pets).toHaveLength(1);
    expect(store.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
  });

  it('backs off exponentially when the 429 gives no timing', async () => {
    const { client, store } = setup({ maxRetries: 2 });
    store.injectFault({ status: 429, times: 2, headers: { 'retry-after': '', 'x-ratelimit-reset': '' } });
    const { error, elapsed } = await settle(client.listPets(), 10);
    expect(error).toBeUndefined();
    expect(store.requests).toHaveLength(3);
    // 500 ms then 1000 ms, each with up to half taken off by jitter.
    expect(elapsed).toBeGreaterThanOrEqual(750);
    expect(elapsed).toBeLessThanOrEqual(1600);
  });

  it('takes an X-RateLimit-Reset too large to be a time for none: backs off, and holds no later call', async () => {
    const { client, store } = setup();
    const endless = { 'retry-after': '', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '9'.repeat(20) };
    store.injectFault({ status: 429, headers: endless });
    expect((await settle(client.listPets(), 10)).error).toBeUndefined();
    expect((await settle(client.listPets(), 10)).error).toBeUndefined();
    expect(store.requests.map((request) => request.status)).toEqual([429, 200, 200]);
  });

  it('gives up with RateLimitError after maxRetries', async () => {
    const { client, store } = setup({ maxRetries: 2 });
    store.injectFault({ status: 429, times: 5, headers: { 'retry-after': '1' } });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(RateLimitError);
    expect(store.requests).toHaveLength(3);
  });

  it('fails at once when the requested wait is longer than maxRetryAfter', async () => {
    const { client, store } = setup({ maxRetryAfter: 10_000 });
    store.injectFault({ status: 429, headers: { 'retry-after': '3600' } });
    const { error, elapsed } = await settle(client.listPets());
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_600_000);
    expect(store.requests).toHaveLength(1);
    expect(elapsed).toBeLessThan(1000);
    // The cooldown stays: the next call fails fast too, without a request.
    const next = await settle(client.listPets());
    expect(next.error).toBeInstanceOf(RefusedError);
    expect(store.requests).toHaveLength(1);
  });

  it('holds every request of the client during a cooldown, whatever the operation', async () => {
    const onWait = vi.fn();
    const { client: paced, store } = setup({ onWait });
    store.injectFault({ status: 429, times: 1, headers: { 'retry-after': '10' } });
    const first = paced.listPets();
    await vi.advanceTimersByTimeAsync(100);
    expect(store.requests).toHaveLength(1);
    const burst = [paced.createPet({ name: 'A', categoryId: 1 }), paced.listPets(), paced.listPets()];
    await vi.advanceTimersByTimeAsync(9_000);
    expect(store.requests).toHaveLength(1);
    const results = await settle(Promise.all([first, ...burst]));
    expect(results.error).toBeUndefined();
    expect(store.requests).toHaveLength(5);
    expect(onWait).toHaveBeenCalledWith(
      expect.objectContaining({ operation: 'createPet', reason: 'cooldown' }),
    );
  });
});

describe('server errors, timeouts and lost connections', () => {
  it('honours Retry-After on a 503', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 503, headers: { 'Retry-After': '4' } });
    const { value, elapsed } = await settle(client.listPets());
    expect(value).toEqual([]);
    expect(elapsed).toBeGreaterThanOrEqual(4000);
    expect(elapsed).toBeLessThan(4500);
  });

  it('retries a GET after 503 with backoff', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 503, times: 2 });
    const { value, elapsed } = await settle(client.listPets(), 10);
    expect(value).toEqual([]);
    expect(store.requests).toHaveLength(3);
    // 500 ms then 1000 ms, less jitter: not until the rate-limit window resets.
    expect(elapsed).toBeGreaterThanOrEqual(750);
    expect(elapsed).toBeLessThanOrEqual(1600);
  });

  it('never sends a createPet twice after a 500', async () => {
    const { client, store } = setup();
    store.injectFault({ match: { method: 'POST', path: '/pets' }, status: 500 });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expect(store.requests).toHaveLength(1);
  });

  it('retries a GET after a connection failure, but not a createPet', async () => {
    const { client, store } = setup();
    store.injectFault({ networkError: true });
    expect((await settle(client.listPets())).error).toBeUndefined();
    expect(store.requests).toHaveLength(2);
    store.injectFault({ networkError: true });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(store.pets).toHaveLength(0);
  });

  it('times out an attempt after `timeout` and retries a GET', async () => {
    const { client, store } = setup({ timeout: 1000 });
    store.injectFault({ delay: 5000 });
    const { value, elapsed } = await settle(client.listPets());
    expect(value).toEqual([]);
    expect(store.requests).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(1000);
  });

  it('does not retry a createPet that timed out', async () => {
    const { client, store } = setup({ timeout: 1000 });
    store.injectFault({ match: { method: 'POST', path: '/pets' }, delay: 5000 });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }, { timeout: 500 }));
    expect(error).toBeInstanceOf(APIConnectionTimeoutError);
    expect(store.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
  });
});

describe('aborting', () => {
  it('stops a call at once while it waits to retry', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'retry-after': '30' } });
    const controller = new AbortController();
    const pending = settle(client.listPets({}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(1000);
    controller.abort();
    const { error, elapsed } = await pending;
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(elapsed).toBeLessThan(2000);
    expect(store.requests).toHaveLength(1);
  });

  it('stops a call in flight', async () => {
    const { client, store } = setup();
    store.injectFault({ delay: 10_000 });
    const controller = new AbortController();
    const pending = settle(client.listPets({}, { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(100);
    controller.abort();
    expect((await pending).error).toBeInstanceOf(APIUserAbortError);
  });

  it('rejects at once with an already aborted signal, sending nothing', async () => {
    const { client, store } = setup();
    const { error } = await settle(client.listPets({}, { signal: AbortSignal.abort() }));
    expect(error).toBeInstanceOf(APIUserAbortError);
    expect(store.requests).toHaveLength(0);
  });
});
