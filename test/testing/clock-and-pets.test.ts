import { describe, expect, it } from 'vitest';
import type { Pet } from '../../src/schemas.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed, expectError, postJson, rateLimit, transports } from './support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const KEY = 'two-a-minute';

describe.each(transports)('store.advanceClock over $name', (transport) => {
  it('passes a used-up window at once; X-RateLimit-Reset and Retry-After follow the clock', async () => {
    const store = createFakePetStore({ now: () => T0, apiKeys: { [KEY]: { perMinute: 2, perDay: 100 } } });
    const { baseUrl, fetch } = await transport.serve(store);
    const get = () => fetch(`${baseUrl}/pets`, authed({}, KEY));
    await get();
    store.advanceClock(30_000);
    expect(rateLimit(await get())).toEqual({ limit: 2, remaining: 0, reset: T0 / 1000 + 60 });
    const limited = await get();
    await expectError(limited, 429, 'rate_limited');
    expect(limited.headers.get('retry-after')).toBe('30');

    store.advanceClock(30_000);
    const again = await get();
    expect(again.status).toBe(200);
    expect(rateLimit(again)).toEqual({ limit: 2, remaining: 1, reset: T0 / 1000 + 120 });
    expect(store.requests.at(-1)?.receivedAt).toBe(T0 + 60_000);
  });

  it('passes a ban at once', async () => {
    const store = createFakePetStore({
      now: () => T0,
      apiKeys: { [KEY]: { perMinute: 1, perDay: 100 } },
      ban: { maxRequestsWhileLimited: 1, duration: 600_000 },
    });
    const { baseUrl, fetch } = await transport.serve(store);
    const get = () => fetch(`${baseUrl}/pets`, authed({}, KEY));
    await get();
    await get();
    const banned = await get();
    await expectError(banned, 429, 'api_key_banned');
    expect(banned.headers.get('retry-after')).toBe('600');
    store.advanceClock(599_000);
    expect((await get()).headers.get('retry-after')).toBe('1');
    store.advanceClock(1_000);
    expect((await get()).status).toBe(200);
  });

  it('is undone by reset()', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    store.advanceClock(3_600_000);
    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed())).reset).toBe(T0 / 1000 + 3_600 + 60);
    store.reset();
    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed())).reset).toBe(T0 / 1000 + 60);
  });
});

describe('store.advanceClock', () => {
  it('moves the HTTP server’s Date', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const server = await store.listen();
    try {
      store.advanceClock(86_400_000);
      const response = await fetch(`${server.url}/pets`, authed());
      expect(response.headers.get('date')).toBe(new Date(T0 + 86_400_000).toUTCString());
    } finally {
      await server.close();
    }
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 367 * 86_400_000])('refuses %s', (ms) => {
    expect(() => createFakePetStore().advanceClock(ms)).toThrow(
      /advanceClock: give whole milliseconds from 0 to 31622400000 \(a year\)/,
    );
  });
});

describe.each(transports)('store.setPets over $name', (transport) => {
  const rex: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

  it('replaces the pets; new ids continue above the highest; reset() returns to the initial ones', async () => {
    const store = createFakePetStore({ pets: [rex] });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, postJson({ name: 'Luna', categoryId: 2 }));
    store.setPets([
      { id: 40, name: 'Max', categoryId: 3, status: 'sold' },
      { id: 7, name: 'Bella', categoryId: 1 },
    ]);
    expect(await (await fetch(`${baseUrl}/pets`, authed())).json()).toEqual([
      { id: 7, name: 'Bella', categoryId: 1 },
      { id: 40, name: 'Max', categoryId: 3, status: 'sold' },
    ]);
    const created = await (await fetch(`${baseUrl}/pets`, postJson({ name: 'Coco', categoryId: 1 }))).json();
    expect(created).toMatchObject({ id: 41, name: 'Coco' });
    store.reset();
    expect(store.pets).toEqual([rex]);
  });

  it('refuses an invalid pet or a repeated id, and changes nothing', async () => {
    const store = createFakePetStore({ pets: [rex] });
    await transport.serve(store);
    expect(() => store.setPets([{ id: 2, name: 'Max' } as Pet])).toThrow(
      /pets\[0\] is not a valid Pet: categoryId/,
    );
    expect(() => store.setPets([rex, { ...rex, name: 'Rex II' }])).toThrow('pets: two pets share the id 1');
    expect(store.pets).toEqual([rex]);
  });
});
