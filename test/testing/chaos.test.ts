import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_CHAOS_FAULTS } from '../../src/testing/disruptions/chaos.js';
import type { FaultMatch } from '../../src/testing/disruptions/faults.js';
import { type ChaosOptions, createFakePetStore, type FakePetStore } from '../../src/testing/index.js';
import {
  type Connection,
  fetchTransport,
  httpTransport,
  mswTransport,
  postJson,
  type Transport,
  until,
} from './support/transports.js';

const KEY = 'chaos-key';
const headers = { Authorization: `Bearer ${KEY}` };

/** A store on a plan roomy enough that its own limits never answer. */
const roomyStore = () =>
  createFakePetStore({ apiKeys: { [KEY]: 'enterprise' }, pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });

/** The same mixed sequence of requests every time: reads, creates and a missing pet. */
async function send({ baseUrl, fetch }: Connection, count: number): Promise<Array<number | 'network-error'>> {
  const outcomes: Array<number | 'network-error'> = [];
  for (let i = 0; i < count; i++) {
    const [path, init]: [string, RequestInit] =
      i % 3 === 0
        ? ['/pets', { headers }]
        : i % 3 === 1
          ? ['/pets', { ...postJson({ name: `Pet ${i}`, categoryId: 1 }, KEY) }]
          : ['/pets/999', { headers }];
    try {
      outcomes.push((await fetch(`${baseUrl}${path}`, init)).status);
    } catch (error) {
      expect(error).toBeInstanceOf(TypeError);
      outcomes.push('network-error');
    }
  }
  return outcomes;
}

async function underChaos(transport: Transport, options: ChaosOptions, count = 60) {
  const store = roomyStore();
  const connection = await transport.serve(store);
  store.injectChaos(options);
  return { outcomes: await send(connection, count), store, connection };
}

const faultsOf = (outcomes: Array<number | 'network-error'>) =>
  outcomes.filter((outcome) => outcome === 'network-error' || outcome >= 429);

describe('chaos', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the same faults for the same seed and requests, in every mode', async () => {
    const runs = [];
    // msw last: once it listens, it intercepts every fetch of the test, the HTTP server's included.
    for (const transport of [httpTransport, fetchTransport, mswTransport, fetchTransport]) {
      runs.push((await underChaos(transport, { seed: 42, rate: 0.3 })).outcomes);
    }
    const [first, ...others] = runs;
    for (const other of others) expect(other).toEqual(first);
    expect(faultsOf(first ?? []).length).toBeGreaterThan(5);
    expect((await underChaos(fetchTransport, { seed: 43, rate: 0.3 })).outcomes).not.toEqual(first);
    // 300 requests, a few hundred milliseconds on a quiet machine; seconds beside busy loops.
  }, 30_000);

  it('records what it gave each request: the seed, the request’s number and the fault', async () => {
    const { outcomes, store } = await underChaos(fetchTransport, { seed: 7, rate: 0.5 }, 30);
    const requests = store.requests;
    expect(requests).toHaveLength(30);
    requests.forEach((request, index) => {
      const outcome = outcomes[index];
      if (request.chaos === undefined) {
        expect(outcome === 'network-error' || (outcome ?? 0) < 429).toBe(true);
        return;
      }
      expect(request.chaos).toMatchObject({ seed: 7, index: index + 1 });
      if (request.chaos.networkError) expect(outcome).toBe('network-error');
      else expect(request.chaos.status).toBe(outcome);
      expect(request.status).toBe(request.chaos.status);
    });
    expect(requests.filter((request) => request.chaos !== undefined).length).toBe(faultsOf(outcomes).length);
  });

  it('faults about the share asked for, picking evenly from the default faults', async () => {
    const some = await underChaos(fetchTransport, { seed: 1, rate: 0.2 }, 300);
    expect(faultsOf(some.outcomes).length).toBeGreaterThan(35);
    expect(faultsOf(some.outcomes).length).toBeLessThan(85);
    const all = await underChaos(fetchTransport, { seed: 1, rate: 1 }, 120);
    expect(new Set(all.outcomes)).toEqual(new Set(DEFAULT_CHAOS_FAULTS));
    expect(faultsOf((await underChaos(fetchTransport, { seed: 1, rate: 0 }, 60)).outcomes)).toEqual([]);
  });

  it('answers a 429 as a gateway would, and a status as the Error shape', async () => {
    const store = roomyStore();
    store.injectChaos({ seed: 3, rate: 1, faults: [429] });
    const response = await store.fetch(`${store.baseUrl}/pets`, { headers });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('considers only the requests it matches, and numbers only those', async () => {
    const { outcomes, store } = await underChaos(
      fetchTransport,
      { seed: 5, rate: 1, faults: [503], match: { method: 'POST' } },
      9,
    );
    expect(outcomes).toEqual([200, 503, 404, 200, 503, 404, 200, 503, 404]);
    expect(store.requests.flatMap((request) => (request.chaos ? [request.chaos.index] : []))).toEqual([
      1, 2, 3,
    ]);
  });

  it('leaves requests an injected fault takes to the fault, without numbering them', async () => {
    const store = roomyStore();
    store.injectChaos({ seed: 5, rate: 1, faults: [503] });
    store.injectFault({ status: 418 });
    const get = async () => (await store.fetch(`${store.baseUrl}/pets`, { headers })).status;
    expect([await get(), await get()]).toEqual([418, 503]);
    expect(store.requests.map((request) => request.chaos?.index)).toEqual([undefined, 1]);
  });

  it('adds delays only when asked, each within its bounds, on the fake clock', async () => {
    const quiet = await underChaos(fetchTransport, { seed: 9, rate: 0.5 }, 40);
    expect(quiet.store.requests.some((request) => request.chaos?.delayMs !== undefined)).toBe(false);

    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const store = roomyStore();
    store.injectChaos({ seed: 9, rate: 0, delay: { rate: 1, min: 100, max: 200 } });
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      let settled = false;
      const pending = store.fetch(`${store.baseUrl}/pets`, { headers }).then((response) => {
        settled = true;
        return response;
      });
      await until(() => store.requests[i]?.chaos?.delayMs !== undefined);
      const delayMs = store.requests[i]?.chaos?.delayMs ?? 0;
      delays.push(delayMs);
      await vi.advanceTimersByTimeAsync(delayMs - 1);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      expect((await pending).status).toBe(200);
    }
    for (const delay of delays) expect(delay).toBeGreaterThanOrEqual(100);
    for (const delay of delays) expect(delay).toBeLessThanOrEqual(200);
    expect(new Set(delays).size).toBeGreaterThan(3);
  });

  it.each<[string, (store: FakePetStore) => void]>([
    ['clearChaos()', (store) => store.clearChaos()],
    ['clearFaults()', (store) => store.clearFaults()],
    ['reset()', (store) => store.reset()],
  ])('ends with %s, and starts over from request 1 when injected again', async (_name, end) => {
    const store = roomyStore();
    const connection = { baseUrl: store.baseUrl, fetch: store.fetch };
    store.injectChaos({ seed: 11, rate: 0.5 });
    const first = await send(connection, 30);
    end(store);
    expect(faultsOf(await send(connection, 30))).toEqual([]);
    store.reset();
    store.injectChaos({ seed: 11, rate: 0.5 });
    expect(await send(connection, 30)).toEqual(first);
  });
});

describe('injectChaos checks its options', () => {
  it.each<[string, ChaosOptions, RegExp]>([
    ['a negative seed', { seed: -1, rate: 0.1 }, /seed must be an integer from 0 to 4294967295, got -1/],
    ['a seed over 32 bits', { seed: 2 ** 32, rate: 0.1 }, /seed/],
    ['a fractional seed', { seed: 1.5, rate: 0.1 }, /seed/],
    ['a rate over 1', { seed: 1, rate: 1.5 }, /rate must be a number from 0 to 1, got 1.5/],
    ['a rate that is not a number', { seed: 1, rate: Number.NaN }, /rate/],
    ['no faults to pick from', { seed: 1, rate: 0.1, faults: [] }, /faults must be a non-empty list/],
    [
      'a success status',
      { seed: 1, rate: 0.1, faults: [200] },
      /each fault must be a status from 400 to 599, "network-error" or a fault after the operation .*, got 200/,
    ],
    ['an unknown fault', { seed: 1, rate: 0.1, faults: ['timeout' as 'network-error'] }, /got timeout/],
    ['a delay rate over 1', { seed: 1, rate: 0, delay: { rate: 2, max: 10 } }, /delay\.rate/],
    [
      'a delay over the most',
      { seed: 1, rate: 0, delay: { rate: 1, max: 300_001 } },
      /delay\.max must be whole milliseconds from 0 to 300000/,
    ],
    [
      'a minimum above the maximum',
      { seed: 1, rate: 0, delay: { rate: 1, min: 20, max: 10 } },
      /min must not be above/,
    ],
    [
      'an nth',
      { seed: 1, rate: 0.1, match: { nth: 2 } as Omit<FaultMatch, 'nth'> },
      /match\.nth is for faults/,
    ],
  ])('rejects %s', (_name, options, message) => {
    expect(() => createFakePetStore().injectChaos(options)).toThrow(message);
  });
});
