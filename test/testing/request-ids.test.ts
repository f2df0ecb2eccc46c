/**
 * The fake's `X-Request-Id`: on every response, through every way in, unique, recorded with the
 * request, and reproducible when the store is seeded.
 */
import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { authed, postJson, transports } from './support/transports.js';

describe.each(transports)('through $name', (transport) => {
  it('names every response, whatever its status, and records the name with its request', async () => {
    const store = createFakePetStore({ apiKeys: { [DEFAULT_API_KEY]: { perMinute: 3, perDay: 100 } } });
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, match: { path: '/pets/1' } });
    const responses = [
      await fetch(`${baseUrl}/pets`, authed()), // 200
      await fetch(`${baseUrl}/pets`, postJson({ name: 'Rex', categoryId: 1 })), // 201
      await fetch(`${baseUrl}/pets/1`, authed()), // 503, injected
      await fetch(`${baseUrl}/pets/2`, authed()), // 404
      await fetch(`${baseUrl}/pets`), // 401
      await fetch(`${baseUrl}/pets`, authed()), // 429
    ];
    const ids = responses.map((response) => response.headers.get('x-request-id'));

    expect(responses.map((response) => response.status)).toEqual([200, 201, 503, 404, 401, 429]);
    expect(ids.every((id) => id !== null && /^req_[0-9a-f]{8}_\d{6}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(store.requests.map((request) => request.requestId)).toEqual(ids);
  });
});

describe('the request ids of a store', () => {
  const list = (store: ReturnType<typeof createFakePetStore>) =>
    store.fetch(`${store.baseUrl}/pets`, authed()).then((response) => response.headers.get('x-request-id'));

  it('are the same for the same requests to stores with the same seed, and again after reset()', async () => {
    const [first, second] = [
      createFakePetStore({ requestIdSeed: 42 }),
      createFakePetStore({ requestIdSeed: 42 }),
    ];
    const ids = [await list(first), await list(first)];

    expect(ids).toEqual(['req_0000002a_000001', 'req_0000002a_000002']);
    expect([await list(second), await list(second)]).toEqual(ids);
    first.reset();
    expect(await list(first)).toBe(ids[0]);
  });

  it('differ between unseeded stores, and after a reset', async () => {
    const store = createFakePetStore();
    const before = await list(store);
    store.reset();

    expect(await list(store)).not.toBe(before);
    expect(await list(createFakePetStore())).not.toBe(before);
  });

  it('give way to the X-Request-Id of an injected fault, which the log keeps', async () => {
    const store = createFakePetStore();
    store.injectFault({ status: 500, headers: { 'X-Request-Id': 'upstream-7' } });

    expect(await list(store)).toBe('upstream-7');
    expect(store.requests[0]?.requestId).toBe('upstream-7');
  });

  it.each([-1, 1.5, 2 ** 32])('refuse the seed %s', (requestIdSeed) => {
    expect(() => createFakePetStore({ requestIdSeed })).toThrow(RangeError);
  });
});
