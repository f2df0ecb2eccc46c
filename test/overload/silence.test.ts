/**
 * Silence is not budget: when answers do not come back, every request that may have reached the
 * service counts as spent, and the client probes until a reading returns. The fake in process on
 * fake time, 10 requests per 4-second window, a `listPets` every 50 ms for 12 s.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { probeBackoffMs } from '../../src/core/pacing/probe.js';
import type { RateLimitWait } from '../../src/core/types.js';
import { type ClientOptions, PetStoreClient, RefusedError } from '../../src/index.js';
import { createInProcessRateLimitStore, type RateLimitStore } from '../../src/store/index.js';
import {
  type ChaosOptions,
  createFakePetStore,
  type FakePetStore,
  type FaultOptions,
} from '../../src/testing/index.js';
import { API_KEY, BASE_URL } from '../client/setup.js';
import { startFakeClock } from '../support/fake-clock.js';

const PLAN = { perMinute: 10, perDay: 100_000, window: 4_000 };
const LIST_PETS = { method: 'GET', path: '/pets' } as const;

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

function client(store: FakePetStore, rateLimitStore?: RateLimitStore, options: ClientOptions = {}) {
  return new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch: store.fetch,
    callTimeout: 2_500,
    logger: { warn: () => {} },
    ...(rateLimitStore && { rateLimitStore }),
    ...options,
  });
}

/** A `listPets` every 50 ms for 12 s, spread over the clients in turn; every call settled at the end. */
async function demand(clients: readonly PetStoreClient[]): Promise<PromiseSettledResult<unknown>[]> {
  const calls: Promise<PromiseSettledResult<unknown>>[] = [];
  for (let at = 0; at < 12_000; at += 50) {
    const call = (clients[calls.length % clients.length] as PetStoreClient).listPets();
    calls.push(Promise.allSettled([call]).then(([result]) => result as PromiseSettledResult<unknown>));
    await vi.advanceTimersByTimeAsync(50);
  }
  const all = Promise.all(calls);
  for (let waited = 0; waited < 60_000; waited += 100) await vi.advanceTimersByTimeAsync(100);
  return all;
}

/** What the service saw in the run: requests, and those it answered 429 (refused or banned). */
function seen(store: FakePetStore, since: number) {
  const requests = store.requests.filter((r) => r.receivedAt >= since && r.receivedAt < since + 12_000);
  const refused = requests.filter((r) => r.response?.status === 429);
  const banned = refused.filter((r) => r.response?.body.includes('api_key_banned'));
  return { requests: requests.length, refused: refused.length, banned: banned.length };
}

async function run(
  fault: { fault?: FaultOptions; chaos?: ChaosOptions },
  { clients = 1, firstReading = false } = {},
) {
  const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: PLAN } });
  const shared = clients > 1 ? createInProcessRateLimitStore() : undefined;
  const all = Array.from({ length: clients }, () => client(store, shared));
  if (firstReading) await all[0]?.listPets();
  if (fault.fault) store.injectFault(fault.fault);
  if (fault.chaos) store.injectChaos(fault.chaos);
  const since = Date.now();
  const results = await demand(all);
  return { ...seen(store, since), results };
}

describe('when answers are lost or stall', () => {
  it('never gets the key banned, and sends at most 30 requests in 12 s, when every answer is lost', async () => {
    const { requests, banned } = await run({
      fault: { afterOperation: 'lost-response', match: LIST_PETS, times: Number.POSITIVE_INFINITY },
    });
    expect(banned).toBe(0);
    expect(requests).toBeLessThanOrEqual(30);
    expect(requests).toBeGreaterThan(0);
  });

  it('draws no 429 when every answer stalls after one good call', async () => {
    const { refused, requests } = await run(
      { fault: { afterOperation: 'stalled-response', match: LIST_PETS, times: Number.POSITIVE_INFINITY } },
      { firstReading: true },
    );
    expect(refused).toBe(0);
    expect(requests).toBeGreaterThan(0);
  });

  it('draws no 429 when a fifth of the answers are lost at random after a reading', async () => {
    const chaos = { seed: 7, rate: 0.2, faults: ['lost-response'], match: LIST_PETS } as const;
    const { refused, results } = await run({ chaos }, { firstReading: true });
    expect(refused).toBe(0);
    // Demand is above the plan: most calls are refused by their bound, yet the budget is spent.
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThanOrEqual(20);
  });

  it('draws no 429 with two clients on one store, a fifth of the answers lost', async () => {
    const chaos = { seed: 7, rate: 0.2, faults: ['lost-response'], match: LIST_PETS } as const;
    const { refused } = await run({ chaos }, { clients: 2, firstReading: true });
    expect(refused).toBe(0);
  });

  it('never gets the key banned with two clients on one store when every answer is lost', async () => {
    const { requests, banned } = await run(
      { fault: { afterOperation: 'lost-response', match: LIST_PETS, times: Number.POSITIVE_INFINITY } },
      { clients: 2 },
    );
    expect(banned).toBe(0);
    expect(requests).toBeLessThanOrEqual(30);
  });
});

describe('a call waiting for a probe', () => {
  it('is reported once, as a probe wait, however often it asks again', async () => {
    const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: PLAN } });
    store.injectFault({ afterOperation: 'stalled-response', match: LIST_PETS });
    const waits: RateLimitWait[] = [];
    const probing = client(store, undefined, { onWait: (wait) => waits.push(wait) });
    const calls = [probing.listPets(), probing.listPets()].map((call) => call.catch(() => undefined));
    await vi.advanceTimersByTimeAsync(5_000);
    await Promise.all(calls);

    // The first call learns the budget (its answer stalls until its 2.5 s); the second waits for it.
    expect(waits.filter((wait) => wait.reason === 'probe')).toEqual([
      { operation: 'listPets', waitMs: expect.any(Number), reason: 'probe' },
    ]);
  });

  it('is refused at once when the backoff before the next probe ends past its bound', async () => {
    const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: PLAN } });
    store.injectFault({ afterOperation: 'lost-response', match: LIST_PETS, times: Number.POSITIVE_INFINITY });
    const lost = client(store);
    // One call after another: each answer lost doubles the backoff, until it passes the 2.5 s bound.
    const refusals: { error: unknown; ms: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const arrived = Date.now();
      let settled = false;
      const call = lost.listPets().then(
        () => undefined,
        (error: unknown) => {
          settled = true;
          return error;
        },
      );
      while (!settled) await vi.advanceTimersByTimeAsync(10);
      const error = await call;
      if (error instanceof RefusedError) refusals.push({ error, ms: Date.now() - arrived });
    }

    expect(refusals.length).toBeGreaterThan(0);
    for (const { error, ms } of refusals) {
      expect(error).toMatchObject({ code: 'client_deadline', sent: 'no' });
      expect(ms).toBeLessThan(250);
    }
  });
});

describe('the probes after silence', () => {
  it('back off from 0.5 s, doubling to 30 s, half of each step random, never faster than the last pace', () => {
    const steps = [1, 2, 3, 7, 8, 20].map((silences) => [
      probeBackoffMs(silences, 0, 0),
      probeBackoffMs(silences, 0.999_999, 0),
    ]);
    expect(steps).toEqual([
      [250, 500],
      [500, 1_000],
      [1_000, 2_000],
      [15_000, 30_000],
      [15_000, 30_000],
      [15_000, 30_000],
    ]);
    // 10 requests a minute: a probe at most every 6 s, so no window gets more than its limit.
    expect(probeBackoffMs(1, 0, 6_000)).toBe(6_000);
  });
});

describe('requests unanswered just before a reset', () => {
  it('spend the next window too, until a window has passed since they went', async () => {
    const store = createInProcessRateLimitStore();
    const scope = { baseUrl: `${BASE_URL}/`, apiKey: 'sk-unanswered' };
    const request = { leaseMs: 5_000, pacing: true };
    const take = async () => {
      const decision = await store.acquire(scope, request);
      if (!decision.granted) throw new Error(`refused: ${JSON.stringify(decision)}`);
      return decision.lease;
    };
    // A reading of 3 left, read to reset in a second: the real reset may come sooner.
    await store.release(scope, await take(), {
      reading: { limit: 3, remaining: 3, resetInMs: 1_000, window: 1_800_000_000 },
    });
    const sent = [await take(), await take(), await take()];
    for (const lease of sent) await store.release(scope, lease, { unanswered: 'lost' });

    // Past the reset as read, and past any probe's backoff, the three may have opened the next
    // window and spent it: nothing goes until a window (at most 2 s, as read) since they went.
    vi.setSystemTime(Date.now() + 1_900);
    expect(await store.acquire(scope, request)).toMatchObject({ granted: false });
    vi.setSystemTime(Date.now() + 200);
    expect(await store.acquire(scope, request)).toMatchObject({ granted: true });
  });
});
