/**
 * Probe: the fake store's throughput and heap through one way in (`--way msw|fetch|http`), for
 * `--calls N` sequential `GET /pets?limit=100` with raw fetch.
 *
 * The heap is read after a warm-up, after the calls, after `store.reset()` (which drops the recorded
 * requests), and for msw after `server.close()`: what remains after the reset is retained by
 * something other than the store's request log.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { setupServer } from 'msw/node';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { BENCH_API_KEY, UNREACHABLE_LIMITS } from './constants.js';
import { settledHeapUsed } from './heap.js';
import { reportResult } from './probe.js';
import { startLoopbackServer } from './start-loopback-server.js';
import { timeCalls } from './timing.js';

export type Way = 'msw' | 'fetch' | 'http';

export interface FakeStoreCost {
  readonly way: Way;
  readonly calls: number;
  readonly callsPerSecond: number;
  /** Heap after the warm-up, in bytes. */
  readonly heapBefore: number;
  /** Heap after the calls, the store's request log included. */
  readonly heapAfterCalls: number;
  /** Heap after `store.reset()`. */
  readonly heapAfterReset: number;
  /** Heap after `server.close()` (msw only). */
  readonly heapAfterClose: number | undefined;
}

interface Target {
  readonly fetch: (url: string, init: RequestInit) => Promise<Response>;
  readonly baseUrl: string;
  heapUsed(): Promise<number>;
  reset(): Promise<void>;
  /** Releases what the way holds, and resolves with the heap after that (msw only). */
  close(): Promise<number | undefined>;
}

async function target(way: Way): Promise<Target> {
  if (way === 'http') {
    const server = await startLoopbackServer();
    return {
      fetch: (url, init) => fetch(url, init),
      baseUrl: server.url,
      heapUsed: () => server.heapUsed(),
      reset: () => server.reset(),
      close: async () => {
        await server.stop();
        return undefined;
      },
    };
  }
  const store = createFakePetStore({
    apiKeys: { [BENCH_API_KEY]: UNREACHABLE_LIMITS },
    pets: samplePets(100),
  });
  const common = {
    baseUrl: store.baseUrl,
    heapUsed: settledHeapUsed,
    reset: async () => store.reset(),
  };
  if (way === 'fetch') {
    return { ...common, fetch: store.fetch, close: async () => undefined };
  }
  const server = setupServer(...store.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  return {
    ...common,
    fetch: (url, init) => fetch(url, init),
    close: async () => {
      server.close();
      return settledHeapUsed();
    },
  };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { way: { type: 'string' }, calls: { type: 'string' } } });
  const way = values.way as Way;
  if (!['msw', 'fetch', 'http'].includes(way)) throw new Error(`Unknown --way ${String(values.way)}`);
  const calls = Number(values.calls ?? 5_000);

  const store = await target(way);
  const url = `${store.baseUrl}/pets?limit=100`;
  const init = { headers: { Authorization: `Bearer ${BENCH_API_KEY}` } };
  const call = async () => {
    const response = await store.fetch(url, init);
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    return JSON.parse(await response.text());
  };

  await timeCalls(call, Math.min(1_000, calls), 1);
  await store.reset();
  const heapBefore = await store.heapUsed();
  const ms = await timeCalls(call, calls, 1);
  const heapAfterCalls = await store.heapUsed();
  await store.reset();
  const heapAfterReset = await store.heapUsed();
  const heapAfterClose = await store.close();
  const result: FakeStoreCost = {
    way,
    calls,
    callsPerSecond: (calls * 1000) / ms,
    heapBefore,
    heapAfterCalls,
    heapAfterReset,
    heapAfterClose,
  };
  reportResult(result);
}

await main();
