import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AuthenticationError, type Fetch, PetStoreClient } from '../../src/index.js';
import { BASE_URL } from './setup.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A heap measure after collection, in MiB. */
function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

/** A service that echoes each request's key in its request id, and in a 401's body once `refuse` is set. */
function echoing() {
  const state = { refuse: false };
  const fetch: Fetch = async (input) => {
    const key = (input as Request).headers.get('authorization')?.slice('Bearer '.length) ?? '';
    const body = state.refuse
      ? { code: 'invalid_api_key', message: `unknown key ${key}`, status: 401 }
      : { id: 1, name: 'Rex', categoryId: 1, status: 'available', tags: [] };
    return new Response(JSON.stringify(body), {
      status: state.refuse ? 401 : 200,
      headers: { 'content-type': 'application/json', 'x-request-id': `req-${key}` },
    });
  };
  return { state, fetch };
}

/** The work redaction does while `run` runs, counted: making a pattern pads each character's code. */
async function patternWork(run: () => Promise<unknown>): Promise<number> {
  const padStart = vi.spyOn(String.prototype, 'padStart');
  try {
    await run();
    return padStart.mock.calls.length;
  } finally {
    padStart.mockRestore();
  }
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('an apiKey function returning a new key for every call', () => {
  it('costs the same and keeps nothing more after 1,000 keys, and hides each call’s key', async () => {
    const { state, fetch } = echoing();
    let issued = 0;
    const apiKey = () => `sk-short-lived-${String(++issued).padStart(6, '0')}-${'x'.repeat(40)}`;
    const lines: string[] = [];
    // Lines are kept only from the refused call on, so that the log does not grow the heap.
    const logger = { debug: (line: string) => state.refuse && lines.push(line), warn: () => {} };
    const client = new PetStoreClient({ apiKey, baseUrl: BASE_URL, fetch, logger, logLevel: 'debug' });

    const first = await patternWork(() => client.getPet(1).withResponse());
    for (let i = 0; i < 100; i++) await client.getPet(1);
    const heapAt100 = heapMiB();
    for (let i = 0; i < 897; i++) await client.getPet(1);
    const heapAt1000 = heapMiB();
    const { requestId } = await client.getPet(1).withResponse();
    expect(issued).toBe(999);
    const last = await patternWork(() => client.getPet(1).withResponse());

    expect(last).toBe(first);
    expect(heapAt1000 - heapAt100).toBeLessThan(2);
    expect(requestId).toBe('req-[redacted]');

    state.refuse = true;
    const error = await client.getPet(1).catch((failure: unknown) => failure);
    const key = `sk-short-lived-${String(issued).padStart(6, '0')}`;
    expect(error).toBeInstanceOf(AuthenticationError);
    const seen = [String(error), JSON.stringify(error), ...lines].join('\n');
    expect(seen).toContain('[redacted]');
    expect(seen).not.toContain(key);
  }, 60_000);
});
