/** The request log's bounds: bytes as well as requests, whatever the mix, and little of what a request without a key sent. */
import { describe, expect, it } from 'vitest';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

const MiB = 1024 * 1024;
const auth = { Authorization: `Bearer ${DEFAULT_API_KEY}` };

/** The characters the log counts of what it keeps: URLs, headers and bodies of requests and answers. */
function keptSize(store: ReturnType<typeof createFakePetStore>): number {
  const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
  const headers = (list: Readonly<Record<string, string>>) =>
    Object.entries(list).reduce((sum, [name, value]) => sum + name.length + value.length, 0);
  return store.requests.reduce(
    (sum, request) =>
      sum +
      request.url.length +
      headers(request.headers) +
      text(request.body).length +
      (request.response === undefined ? 0 : headers(request.response.headers) + request.response.body.length),
    0,
  );
}

describe('the request log’s bounds', () => {
  it('keeps only the first 1 KiB of the body of a request that failed authentication', async () => {
    const store = createFakePetStore();
    const body = 'x'.repeat(MiB);
    for (const headers of [{}, { Authorization: 'Bearer wrong-key' }]) {
      const answer = await store.fetch(`${store.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'text/plain' },
        body,
      });
      expect(answer.status).toBe(401);
    }
    const accepted = await store.fetch(`${store.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/plain' },
      body,
    });
    expect(accepted.status).toBe(400);
    expect(store.requests.map((request) => [(request.body as string).length, request.bodyTruncated])).toEqual(
      [
        [1024, true],
        [1024, true],
        [MiB, undefined],
      ],
    );
  });

  it('holds maxRecordedBytes for any mix: large bodies with and without a key, large answers, small requests', async () => {
    const cap = 256 * 1024;
    const store = createFakePetStore({ maxRecordedBytes: cap, pets: samplePets(100) });
    const big = JSON.stringify({ name: 'y'.repeat(100_000), categoryId: 1 });
    for (let round = 0; round < 5; round++) {
      await store.fetch(`${store.baseUrl}/pets`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: big,
      });
      await store.fetch(`${store.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: big,
      });
      await store.fetch(`${store.baseUrl}/pets?limit=100`, { headers: auth });
      await store.fetch(`${store.baseUrl}/pets/1`, { headers: { ...auth, 'X-Padding': 'p'.repeat(8_000) } });
      expect(keptSize(store)).toBeLessThanOrEqual(cap);
    }
    expect(store.droppedRequests).toBeGreaterThan(0);
    // The newest is always kept.
    expect(store.requests.at(-1)?.path).toBe('/pets/1');
  });

  it('refuses a maxRecordedBytes that is not a count of bytes', () => {
    expect(() => createFakePetStore({ maxRecordedBytes: -1 })).toThrow(RangeError);
    expect(() => createFakePetStore({ maxRecordedBytes: 1.5 })).toThrow(
      /maxRecordedBytes must be an integer/,
    );
  });
});
