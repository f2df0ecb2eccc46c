/**
 * Probe: `--calls N` calls through one client on `store.fetch`, 50 at a time, alternating
 * `listPets({ limit: 100 })` and `getPet(id)`; with `--signal shared`, every call passes the same
 * long-lived `AbortSignal`. The heap is read after a warm-up and after every tenth of the calls, each
 * time after `store.reset()` so that the store's request log does not count.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import { PetStoreClient, type RequestOptions } from '../../src/index.js';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { BENCH_API_KEY, UNREACHABLE_LIMITS } from './constants.js';
import { settledHeapUsed } from './heap.js';
import { reportResult } from './probe.js';
import { timeCalls } from './timing.js';

export interface ClientMemory {
  readonly signal: 'none' | 'shared';
  readonly calls: number;
  readonly callsPerSecond: number;
  readonly heapBefore: number;
  /** The heap after each tenth of the calls. */
  readonly heapSamples: number[];
}

const SAMPLES = 10;

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { calls: { type: 'string' }, signal: { type: 'string' } } });
  const calls = Number(values.calls ?? 100_000);
  const signal = values.signal === 'shared' ? 'shared' : 'none';

  const store = createFakePetStore({
    apiKeys: { [BENCH_API_KEY]: UNREACHABLE_LIMITS },
    pets: samplePets(100),
  });
  const client = new PetStoreClient({
    apiKey: BENCH_API_KEY,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
    deprecationWarnings: false,
  });
  const controller = new AbortController();
  const options: RequestOptions | undefined = signal === 'shared' ? { signal: controller.signal } : undefined;
  const call = (index: number) =>
    index % 2 === 0 ? client.listPets({ limit: 100 }, options) : client.getPet((index % 100) + 1, options);

  await timeCalls(call, 1_000, 50);
  store.reset();
  const heapBefore = await settledHeapUsed();
  const heapSamples: number[] = [];
  let ms = 0;
  const perSample = Math.ceil(calls / SAMPLES);
  for (let sample = 0; sample < SAMPLES; sample++) {
    ms += await timeCalls(call, perSample, 50);
    store.reset();
    heapSamples.push(await settledHeapUsed());
  }
  const result: ClientMemory = {
    signal,
    calls: perSample * SAMPLES,
    callsPerSecond: (perSample * SAMPLES * 1000) / ms,
    heapBefore,
    heapSamples,
  };
  reportResult(result);
}

await main();
