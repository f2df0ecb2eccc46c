import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Fetch, PetStoreClient } from '../../src/index.js';
import { API_KEY, BASE_URL } from './setup.js';

// A call that does not wait costs what ky's own call costs: counted, since CPU time is noise on a busy machine.
const pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available', tags: [] };
const fetch: Fetch = async () =>
  new Response(JSON.stringify(pet), {
    headers: {
      'content-type': 'application/json',
      'x-ratelimit-limit': '1000',
      'x-ratelimit-remaining': '999',
      'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    },
  });

afterEach(() => {
  vi.restoreAllMocks();
});

async function countedCalls(client: PetStoreClient, signal?: AbortSignal) {
  await client.getPet(1, { signal });
  const any = vi.spyOn(AbortSignal, 'any');
  const timers = vi.spyOn(globalThis, 'setTimeout');
  for (let i = 0; i < 10; i++) await client.getPet(1, { signal });
  return { any: any.mock.calls.length, timers: timers.mock.calls.length };
}

describe('a call that does not wait', () => {
  it('combines no signals and sets no timer beyond the attempt’s timeout', async () => {
    const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch, callTimeout: 30_000 });
    const counts = await countedCalls(client);
    expect(counts.any).toBe(0);
    expect(counts.timers).toBe(10);
  });

  it('with a signal of its own, combines none either: the call follows it', async () => {
    const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch });
    const counts = await countedCalls(client, new AbortController().signal);
    expect(counts.any).toBe(0);
    expect(counts.timers).toBe(10);
  });
});
