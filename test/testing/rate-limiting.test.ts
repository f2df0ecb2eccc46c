import { describe, expect, it } from 'vitest';
import { createFakePetStore, type FakePetStoreOptions } from '../../src/testing/index.js';
import {
  authed,
  type Connection,
  expectError,
  postJson,
  rateLimit,
  transports,
} from './support/transports.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

/** A store on a clock the test moves. */
function clockedStore(options: FakePetStoreOptions = {}) {
  const clock = { now: T0 };
  const store = createFakePetStore({ now: () => clock.now, ...options });
  return { clock, store };
}

async function send(connection: Connection, count: number, key = 'test-api-key'): Promise<Response[]> {
  const responses: Response[] = [];
  for (let i = 0; i < count; i += 1) {
    const response = await connection.fetch(`${connection.baseUrl}/pets`, authed({}, key));
    await response.arrayBuffer();
    responses.push(response);
  }
  return responses;
}

describe.each(transports)('rate limiting over $name', (transport) => {
  it('puts the rate-limit headers of the key on every kind of response', async () => {
    const { store } = clockedStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const connection = await transport.serve(store);
    const { baseUrl, fetch } = connection;
    const responses = [
      await fetch(`${baseUrl}/pets`, authed()),
      await fetch(`${baseUrl}/pets`, postJson({ name: 'Tom', categoryId: 2 })),
      await fetch(`${baseUrl}/pets/1`, authed()),
      await fetch(`${baseUrl}/pets/99`, authed()),
      await fetch(`${baseUrl}/pets?limit=0`, authed()),
      await fetch(`${baseUrl}/pets`, authed({ method: 'DELETE' })),
      await fetch(`${baseUrl}/store/orders`, authed()),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 201, 200, 404, 400, 405, 404]);
    expect(responses.map((response) => rateLimit(response))).toEqual(
      [59, 58, 57, 56, 55, 54, 53].map((remaining) => ({ limit: 60, remaining, reset: T0 / 1000 + 60 })),
    );
  });

  it('uses the limits of the key plan', async () => {
    const { store } = clockedStore({
      apiKeys: {
        free: 'free',
        pro: 'pro',
        business: 'business',
        enterprise: 'enterprise',
        custom: { perMinute: 7, perDay: 9 },
      },
    });
    const connection = await transport.serve(store);
    const limits: Record<string, number> = {};
    for (const key of ['free', 'pro', 'business', 'enterprise', 'custom']) {
      limits[key] = rateLimit((await send(connection, 1, key))[0] as Response).limit;
    }
    expect(limits).toEqual({ free: 60, pro: 300, business: 1_000, enterprise: 10_000, custom: 7 });
  });

  it('anchors the minute window at the first request and resets it a minute later', async () => {
    const { clock, store } = clockedStore();
    const connection = await transport.serve(store);
    clock.now = T0 + 10_400;
    const [first] = await send(connection, 1);
    expect(rateLimit(first as Response)).toEqual({
      limit: 60,
      remaining: 59,
      reset: Math.ceil((T0 + 10_400 + MINUTE) / 1000),
    });
    clock.now = T0 + 10_400 + MINUTE;
    const [next] = await send(connection, 1);
    expect(rateLimit(next as Response)).toEqual({
      limit: 60,
      remaining: 59,
      reset: Math.ceil((T0 + 10_400 + 2 * MINUTE) / 1000),
    });
  });

  it('answers over the limit with 429, Retry-After and an Error body, until the window resets', async () => {
    const { clock, store } = clockedStore();
    const connection = await transport.serve(store);
    const allowed = await send(connection, 60);
    expect(allowed.every((response) => response.status === 200)).toBe(true);
    expect(rateLimit(allowed[59] as Response).remaining).toBe(0);

    clock.now = T0 + 15_500;
    const limited = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    const body = await expectError(limited, 429, 'rate_limited');
    expect(body.message).toContain('60 requests per minute');
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(rateLimit(limited)).toEqual({ limit: 60, remaining: 0, reset: T0 / 1000 + 60 });

    clock.now = T0 + MINUTE;
    const [again] = await send(connection, 1);
    expect(again?.status).toBe(200);
  });

  it('answers with the day window once the day is used up', async () => {
    const { clock, store } = clockedStore({ apiKeys: { 'test-api-key': { perMinute: 5, perDay: 6 } } });
    const connection = await transport.serve(store);
    await send(connection, 5);
    clock.now = T0 + MINUTE;
    const [sixth] = await send(connection, 1);
    expect(rateLimit(sixth as Response)).toEqual({ limit: 6, remaining: 0, reset: T0 / 1000 + 86_400 });
    clock.now = T0 + 2 * MINUTE;
    const limited = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    const body = await expectError(limited, 429, 'rate_limited');
    expect(body.message).toContain('per day');
    expect(limited.headers.get('retry-after')).toBe(String(86_400 - 120));
  });

  it('keeps the windows of different keys apart', async () => {
    const { store } = clockedStore({
      apiKeys: { a: { perMinute: 1, perDay: 10 }, b: { perMinute: 1, perDay: 10 } },
    });
    const connection = await transport.serve(store);
    await send(connection, 1, 'a');
    expect((await send(connection, 1, 'a'))[0]?.status).toBe(429);
    expect((await send(connection, 1, 'b'))[0]?.status).toBe(200);
  });

  it('bans a key that keeps sending while limited, with its own code and the ban Retry-After', async () => {
    const { clock, store } = clockedStore({ apiKeys: { 'test-api-key': { perMinute: 1, perDay: 100 } } });
    const connection = await transport.serve(store);
    await send(connection, 1);
    const whileLimited = await send(connection, 10);
    expect(whileLimited.map((response) => response.status)).toEqual(Array(10).fill(429));

    clock.now = T0 + 1_000;
    const banned = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    await expectError(banned, 429, 'api_key_banned');
    expect(banned.headers.get('retry-after')).toBe('600');
    expect(rateLimit(banned)).toEqual({ limit: 1, remaining: 0, reset: T0 / 1000 + 1 + 600 });

    clock.now = T0 + 1_000 + 5 * MINUTE;
    const stillBanned = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    await expectError(stillBanned, 429, 'api_key_banned');
    expect(stillBanned.headers.get('retry-after')).toBe('300');

    clock.now = T0 + 1_000 + 10 * MINUTE;
    expect((await send(connection, 1))[0]?.status).toBe(200);
  });

  it('runs a plan with a short window like a minute one: headers, 429, Retry-After, ban', async () => {
    const { clock, store } = clockedStore({
      apiKeys: { 'test-api-key': { perMinute: 3, perDay: 100, window: 2_500 } },
      ban: { maxRequestsWhileLimited: 2, duration: 10_000 },
    });
    const connection = await transport.serve(store);
    const allowed = await send(connection, 3);
    expect(allowed.map((response) => rateLimit(response))).toEqual(
      [2, 1, 0].map((remaining) => ({ limit: 3, remaining, reset: Math.ceil((T0 + 2_500) / 1000) })),
    );

    clock.now = T0 + 1_200;
    const limited = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    const body = await expectError(limited, 429, 'rate_limited');
    expect(body.message).toBe('Rate limit of 3 requests per 2.5 s exceeded; retry in 2 s');
    expect(limited.headers.get('retry-after')).toBe('2');

    clock.now = T0 + 2_500;
    const [next] = await send(connection, 1);
    expect(next?.status).toBe(200);
    expect(rateLimit(next as Response)).toEqual({ limit: 3, remaining: 2, reset: T0 / 1000 + 5 });

    await send(connection, 2);
    await send(connection, 2);
    const banned = await connection.fetch(`${connection.baseUrl}/pets`, authed());
    await expectError(banned, 429, 'api_key_banned');
    expect(banned.headers.get('retry-after')).toBe('10');
    // The ban outlasts many short windows.
    clock.now = T0 + 2_500 + 7_500;
    expect((await send(connection, 1))[0]?.status).toBe(429);
    clock.now = T0 + 2_500 + 10_000;
    expect((await send(connection, 1))[0]?.status).toBe(200);
  });

  it('takes the ban thresholds from the options, or never bans', async () => {
    const { store } = clockedStore({
      apiKeys: { strict: { perMinute: 1, perDay: 100 } },
      ban: { maxRequestsWhileLimited: 1, duration: 30_000 },
    });
    const connection = await transport.serve(store);
    await send(connection, 2, 'strict');
    const third = await connection.fetch(`${connection.baseUrl}/pets`, authed({}, 'strict'));
    await expectError(third, 429, 'api_key_banned');
    expect(third.headers.get('retry-after')).toBe('30');

    const { store: noBans } = clockedStore({ apiKeys: { k: { perMinute: 1, perDay: 100 } }, ban: false });
    const other = await transport.serve(noBans);
    await send(other, 20, 'k');
    const last = await other.fetch(`${other.baseUrl}/pets`, authed({}, 'k'));
    await expectError(last, 429, 'rate_limited');
  });
});
