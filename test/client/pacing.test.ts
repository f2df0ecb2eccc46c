import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { RefusedError } from '../../src/index.js';
import { useFakeClock } from '../support/fake-clock.js';
import { API_KEY, setup } from './setup.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12, 0, 0, 250));
});
afterEach(() => {
  vi.useRealTimers();
});

/** A client on the Free plan (60 a minute) whose every response status is recorded. */
function freePlan(options: Parameters<typeof setup>[0] = {}) {
  const statuses: number[] = [];
  const waits: RateLimitWait[] = [];
  const context = setup(
    {
      onWait: (wait) => waits.push(wait),
      ...options,
      fetch: async (input, init) => {
        const response = await context.store.fetch(input, init);
        statuses.push(response.status);
        return response;
      },
    },
    { apiKeys: { [API_KEY]: 'free' } },
  );
  return { ...context, statuses, waits };
}

async function runAll<T>(promises: Promise<T>[]) {
  const start = Date.now();
  let settled = 0;
  const all = Promise.allSettled(promises.map((p) => p.finally(() => settled++)));
  while (settled < promises.length && Date.now() - start < 10 * 60_000)
    await vi.advanceTimersByTimeAsync(250);
  return { results: await all, elapsed: Date.now() - start };
}

describe('pacing by the rate-limit headers', () => {
  it('carries 150 concurrent calls through the Free plan without a 429 or a ban, in three windows', async () => {
    // Three windows: the last calls wait a little over two minutes in all, which the default refuses.
    const { client, statuses, waits } = freePlan({ maxQueueWait: 180_000 });
    const { results, elapsed } = await runAll(Array.from({ length: 150 }, () => client.listPets()));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(statuses).toHaveLength(150);
    expect(statuses.filter((s) => s === 429).length).toBeLessThanOrEqual(1);
    // 150 requests at 60 a minute need three windows: two resets to wait for, no more.
    expect(elapsed).toBeGreaterThanOrEqual(2 * 60_000 - 1000);
    expect(elapsed).toBeLessThan(3 * 60_000);
    expect(waits.some((w) => w.reason === 'budget')).toBe(true);
  });

  it('sends no 429-bound request once it knows the budget is spent', async () => {
    const { client, statuses } = freePlan();
    await runAll(Array.from({ length: 60 }, () => client.listPets()));
    expect(client.rateLimit?.remaining).toBe(0);
    const { results } = await runAll(Array.from({ length: 30 }, () => client.listPets()));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(statuses).toHaveLength(90);
    expect(statuses).not.toContain(429);
  });

  it('releases held requests in the order they were made', async () => {
    const { client, store } = freePlan();
    await runAll(Array.from({ length: 60 }, () => client.listPets()));
    await runAll(Array.from({ length: 5 }, (_, i) => client.createPet({ name: `Pet ${i}`, categoryId: 1 })));
    expect(store.pets.map((p) => p.name)).toEqual(['Pet 0', 'Pet 1', 'Pet 2', 'Pet 3', 'Pet 4']);
  });

  it('keeps pacing when the first answer is an error without rate-limit headers, as from a proxy', async () => {
    const statuses: number[] = [];
    const context = setup(
      {
        fetch: async (input, init) => {
          if (statuses.length === 0) {
            statuses.push(502);
            return new Response('<h1>Bad gateway</h1>', {
              status: 502,
              headers: { 'content-type': 'text/html' },
            });
          }
          const response = await context.store.fetch(input, init);
          statuses.push(response.status);
          return response;
        },
      },
      { apiKeys: { [API_KEY]: 'free' } },
    );
    const { results } = await runAll(Array.from({ length: 70 }, () => context.client.listPets()));
    expect(results.every((r) => r.status === 'fulfilled')).toBe(true);
    expect(statuses.filter((s) => s === 429)).toEqual([]);
  });

  it('fails fast with a RefusedError when the reset is beyond maxRetryAfter', async () => {
    // The budget spent at once, so that the reset is most of a minute away.
    const { client, statuses } = freePlan({ maxRetryAfter: 5_000, pacingBurst: 1 });
    await runAll(Array.from({ length: 60 }, () => client.listPets()));
    const { results, elapsed } = await runAll([client.listPets()]);
    expect(results[0]?.status).toBe('rejected');
    const { reason } = results[0] as PromiseRejectedResult;
    expect(reason).toBeInstanceOf(RefusedError);
    expect(reason).toMatchObject({ code: 'client_rate_limited', sent: 'no' });
    expect(reason).not.toHaveProperty('status');
    expect(elapsed).toBeLessThan(1000);
    expect(statuses).toHaveLength(60);
  });

  it('can be turned off, leaving only the cooldown after a 429', async () => {
    const { client, statuses } = freePlan({ pacing: false, maxRetries: 0 });
    const { results } = await runAll(Array.from({ length: 65 }, () => client.listPets()));
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    expect(results.filter((r) => r.status === 'rejected').length).toBeGreaterThan(0);
  });
});
