import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { RateLimitError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { browserClient, serveStoreThroughWorker } from './support/store-worker.js';

const store = serveStoreThroughWorker();

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

it('waits out a 429 for its Retry-After, then retries and succeeds', async () => {
  const { client } = browserClient();
  store.injectFault({ status: 429, headers: { 'Retry-After': '1' } });
  const { value, error } = await settle(client.listPets(), 25);
  expect(error).toBeUndefined();
  expect(value?.map((pet) => pet.id)).toEqual([1, 2, 3]);

  const [refused, retried] = store.requests;
  expect(store.requests).toHaveLength(2);
  const waited = (retried?.receivedAt ?? 0) - (refused?.receivedAt ?? 0);
  expect(waited).toBeGreaterThanOrEqual(1000);
  expect(waited).toBeLessThan(1500);
});

it('retries a refused createPet and creates the pet once', async () => {
  const { client } = browserClient();
  store.injectFault({ status: 429, headers: { 'Retry-After': '1' }, match: { method: 'POST' } });
  const { value } = await settle(client.createPet({ name: 'Pip', categoryId: 1 }), 25);
  expect(value).toMatchObject({ id: 4, name: 'Pip' });
  expect(store.pets.filter((pet) => pet.name === 'Pip')).toHaveLength(1);
  expect(store.requests.filter((request) => request.method === 'POST')).toHaveLength(2);
});

it('gives up with a RateLimitError after maxRetries refusals', async () => {
  const { client } = browserClient({ maxRetries: 1 });
  store.injectFault({ status: 429, headers: { 'Retry-After': '1' }, times: 5 });
  const { error } = await settle(client.listPets(), 25);
  expect(error).toBeInstanceOf(RateLimitError);
  expect(error).toMatchObject({ status: 429, retryAfterMs: 1000 });
  expect(store.requests).toHaveLength(2);
});
