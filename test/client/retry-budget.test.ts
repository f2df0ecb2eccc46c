/**
 * The client-wide retry budget: failures add at most 10 retries, and one more for every 5
 * successful calls; past it a failed call fails at once with its last error, saying why.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APIConnectionError, APIError } from '../../src/index.js';
import { settle, startFakeClock } from '../support/fake-clock.js';
import { setup } from './setup.js';

const LIST_PETS = { method: 'GET', path: '/pets' } as const;

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** `count` calls one after another; each settled, with what the service received for it. */
async function sequential(client: ReturnType<typeof setup>['client'], count: number) {
  const outcomes: unknown[] = [];
  for (let index = 0; index < count; index++) {
    const settled = await settle(client.listPets());
    outcomes.push(settled.error ?? settled.value);
  }
  return outcomes;
}

describe('the retry budget', () => {
  it('caps the requests a failing service gets: 10 retries, then one attempt a call', async () => {
    const { client, store } = setup({ maxRetries: 2 });
    store.injectFault({ status: 503, match: LIST_PETS, times: Number.POSITIVE_INFINITY });
    const outcomes = await sequential(client, 20);
    // Five calls retried twice each spend the budget; the fifteen after it go once.
    expect(store.requests).toHaveLength(10 + 20);
    expect(outcomes.every((error) => error instanceof APIError && error.status === 503)).toBe(true);
    const last = outcomes.at(-1) as APIError;
    expect(last.message).toContain("Not retried: the client's retry budget is spent");
    expect((outcomes[0] as APIError).message).not.toContain('retry budget');
  });

  it('ends a call at once, without its backoff, once the budget is spent', async () => {
    const { client, store } = setup({ maxRetries: 10 });
    store.injectFault({ status: 502, match: LIST_PETS, times: 11 });
    await sequential(client, 1);
    expect(store.requests).toHaveLength(11);
    store.injectFault({ networkError: true, match: LIST_PETS });
    const settled = await settle(client.listPets());
    expect(settled.elapsed).toBeLessThan(100);
    const error = settled.error;
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/retry budget is spent \(10 retries, 1 more per 5/);
    expect(store.requests).toHaveLength(12);
  });

  it('earns a retry back for every five successful calls', async () => {
    const { client, store } = setup({ maxRetries: 10 });
    store.injectFault({ status: 503, match: LIST_PETS, times: 11 });
    await sequential(client, 1);
    expect(store.requests).toHaveLength(11);
    store.clearFaults();
    await sequential(client, 5);
    store.injectFault({ status: 503, match: LIST_PETS, times: 2 });
    const [error] = await sequential(client, 1);
    // One retry earned back: the call's first attempt and one retry, both 503.
    expect(error).toBeInstanceOf(APIError);
    expect(store.requests).toHaveLength(11 + 5 + 2);
  });
});
