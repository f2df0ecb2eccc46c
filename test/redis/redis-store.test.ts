import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { redisRateLimitStore } from '../../src/redis/index.js';
import type { RateLimitDecision, RateLimitScope, RateLimitStore } from '../../src/store/index.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { CLIENT_KINDS, type ConnectedClient, connect } from './support/clients.js';

/** A key of its own for every test, so that nothing a test left in Redis reaches the next. */
let SCOPE: RateLimitScope;
let tests = 0;
beforeEach(() => {
  SCOPE = Object.freeze({ baseUrl: 'http://animal-store.test/v1/', apiKey: `sk-fleet-secret-${++tests}` });
});
const PACED = { leaseMs: 10_000, pacing: true };
const reading = (remaining: number, resetInMs: number, window = 1_800_000_000) => ({
  limit: 10,
  remaining,
  resetInMs,
  window,
});

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(() => server.stop());

describe.each(CLIENT_KINDS)('redisRateLimitStore on %s', (kind) => {
  const open: ConnectedClient[] = [];
  /** A store with its own connection, as each process of a fleet has. */
  async function processStore(options: Parameters<typeof redisRateLimitStore>[1] = {}) {
    const connection = await connect(kind, server.url);
    open.push(connection);
    const logger = { warn: vi.fn<(message: string) => void>(), info: vi.fn<(message: string) => void>() };
    return { store: redisRateLimitStore(connection.client, { logger, ...options }), logger, connection };
  }
  async function granted(store: RateLimitStore, scope = SCOPE, request = PACED): Promise<string> {
    const decision = await store.acquire(scope, request);
    if (!decision.granted) throw new Error(`expected a lease, got ${JSON.stringify(decision)}`);
    return decision.lease;
  }

  afterEach(async () => {
    await server.start(); // a test may have stopped it
    for (const connection of open.splice(0)) {
      await connection.command('FLUSHALL').catch(() => {});
      await connection.close();
    }
  });

  it('sends one request at a time, across processes, until a response tells the budget', async () => {
    const [a, b] = [await processStore(), await processStore()];
    const first = await granted(a.store);
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'probe' });
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'probe' });

    await a.store.release(SCOPE, first, { reading: reading(3, 5_000) });
    const leases = [await granted(b.store), await granted(a.store), await granted(b.store)];
    expect(leases).toHaveLength(3);
    const spent = await a.store.acquire(SCOPE, PACED);
    expect(spent).toMatchObject({ granted: false, reason: 'budget' });
    expect((spent as { waitMs: number }).waitMs).toBeGreaterThan(4_000);
    expect((spent as { waitMs: number }).waitMs).toBeLessThanOrEqual(5_000);
  });

  it('keeps the lowest remaining count of one window, whichever process reports last', async () => {
    const [a, b] = [await processStore(), await processStore()];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(5, 5_000) });
    const [x, y] = [await granted(a.store), await granted(b.store)];
    await b.store.release(SCOPE, y, { reading: reading(2, 5_000) });
    await a.store.release(SCOPE, x, { reading: reading(3, 5_000) }); // arrived late, from the same window
    await granted(a.store);
    await granted(b.store);
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'budget' });
  });

  it('keeps a request another process got no answer to spent, until a reading of a request granted after it', async () => {
    const [a, b] = [await processStore(), await processStore()];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(5, 5_000) });
    const before = await granted(a.store);
    const [lost, after] = [await granted(b.store), await granted(b.store)];
    await b.store.release(SCOPE, lost, { unanswered: 'aborted' });
    await a.store.release(SCOPE, before, { reading: reading(4, 5_000) }); // taken before the lost one went
    // Four left, one out, one lost: two, whichever process asks.
    const spare = [await granted(a.store), await granted(b.store)];
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'budget' });

    await b.store.release(SCOPE, after, { reading: reading(2, 5_000) }); // counts the lost one, if it arrived
    await a.store.release(SCOPE, spare[0] as string, {});
    await b.store.release(SCOPE, spare[1] as string, {});
    expect([await granted(b.store), await granted(a.store)]).toHaveLength(2);
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'budget' });
  });

  it('holds every process during a 429 cooldown, which only ever grows', async () => {
    const [a, b] = [await processStore(), await processStore()];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(8, 60_000), cooldownMs: 3_000 });
    const held = await b.store.acquire(SCOPE, { leaseMs: 10_000, pacing: false });
    expect(held).toMatchObject({ granted: false, reason: 'cooldown' });
    expect((held as { waitMs: number }).waitMs).toBeGreaterThan(2_000);

    // A shorter cooldown reported later does not cut the first one short.
    await b.store.release(SCOPE, 'a-lease-that-ran-out', { cooldownMs: 100 });
    const still = (await a.store.acquire(SCOPE, PACED)) as { waitMs: number };
    expect(still.waitMs).toBeGreaterThan(2_000);
  });

  it('frees the budget of a process that died holding leases once they expire', async () => {
    const [dead, alive] = [await processStore(), await processStore()];
    await granted(dead.store, SCOPE, { leaseMs: 300, pacing: true }); // never released
    expect(await alive.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'probe' });
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await alive.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
  });

  it('keeps separate budgets for other keys and base URLs', async () => {
    const { store } = await processStore();
    await store.release(SCOPE, await granted(store), { reading: reading(0, 30_000), cooldownMs: 30_000 });
    expect(await store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'cooldown' });
    await granted(store, { ...SCOPE, apiKey: 'another-key' });
    await granted(store, { ...SCOPE, baseUrl: 'http://staging.animal-store.test/v1/' });
  });

  it('never writes the API key, and every key it writes expires on its own', async () => {
    const { store, connection } = await processStore();
    await connection.command('FLUSHALL'); // only this test's keys below
    await store.release(SCOPE, await granted(store), { reading: reading(4, 5_000) });
    await store.release(SCOPE, await granted(store), { cooldownMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await granted(store); // left in flight
    const keys = (await connection.command('KEYS', '*')) as string[];
    expect(keys).toHaveLength(3);
    for (const key of keys) {
      expect(key).not.toContain(SCOPE.apiKey);
      expect(key).toMatch(/^animal-store-sdk:\{[\w-]{22}\}:(state|leases|processes)$/);
      expect(Number(await connection.command('PTTL', key))).toBeGreaterThan(0);
      const dump = JSON.stringify(await connection.command('DUMP', key));
      expect(dump).not.toContain(SCOPE.apiKey);
    }
  });

  it('takes time from Redis, so a host clock a minute off changes no wait', async () => {
    const { store } = await processStore();
    await store.release(SCOPE, await granted(store), { reading: reading(0, 5_000) });
    vi.spyOn(Date, 'now').mockImplementation(() => performance.timeOrigin + performance.now() + 60_000);
    try {
      const wait = (await store.acquire(SCOPE, PACED)) as { waitMs: number };
      expect(wait.waitMs).toBeGreaterThan(4_000);
      expect(wait.waitMs).toBeLessThanOrEqual(5_000);
    } finally {
      vi.restoreAllMocks();
    }
  });

  it('loads its scripts again after Redis forgot them', async () => {
    const { store, connection } = await processStore();
    await store.release(SCOPE, await granted(store), { reading: reading(5, 5_000) });
    await connection.command('SCRIPT', 'FLUSH');
    await granted(store);
  });

  it('after a restart that lost the data, learns the budget again one request at a time', async () => {
    const [a, b] = [await processStore(), await processStore()];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(5, 30_000) });
    await server.stop();
    await server.start();
    await vi.waitFor(() => a.connection.command('PING'), { timeout: 5_000, interval: 100 });
    await vi.waitFor(() => b.connection.command('PING'), { timeout: 5_000, interval: 100 });

    await granted(a.store);
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'probe' });
    expect(a.logger.warn).not.toHaveBeenCalled();
  });

  it('after a restart, a response to a request sent before it does not stand for the budget', async () => {
    const [a, b] = [await processStore(), await processStore()];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(6, 30_000) });
    // b's request goes out; meanwhile others spend the window, and Redis loses its data.
    const early = await granted(b.store);
    await server.stop();
    await server.start();
    await vi.waitFor(() => a.connection.command('PING'), { timeout: 5_000, interval: 100 });
    await vi.waitFor(() => b.connection.command('PING'), { timeout: 5_000, interval: 100 });

    // Its answer (5 left when it was read) arrives at the emptied Redis: too old to start from.
    await b.store.release(SCOPE, early, { reading: reading(5, 29_000) });
    const probe = await granted(a.store);
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'probe' });
    // The first response to a request this Redis granted tells the budget again.
    await a.store.release(SCOPE, probe, { reading: reading(2, 28_000) });
    await granted(b.store);
    await granted(b.store);
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'budget' });
  });

  it('falls back to pacing on a share of the budget when Redis stops answering, warns once, and comes back', async () => {
    const { store, logger } = await processStore({ commandTimeout: 200, retryInterval: 200 });
    await store.release(SCOPE, await granted(store), { reading: reading(8, 30_000) });
    await server.stop();

    const started = Date.now();
    const first = await store.acquire(SCOPE, PACED);
    expect(Date.now() - started).toBeLessThan(1_500); // never hangs
    expect(first).toMatchObject({ granted: true });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(
      /Redis is not answering .*pacing in this process on 50% of the/,
    );
    expect(logger.warn.mock.calls[0]?.[0]).not.toContain(SCOPE.apiKey);

    // Never unthrottled: one process alone, counted as two, spends half of the 8 left.
    const local: RateLimitDecision[] = [];
    for (let i = 0; i < 10; i++) local.push(await store.acquire(SCOPE, PACED));
    expect([first, ...local].filter((d) => d.granted)).toHaveLength(4);
    expect(local.at(-1)).toMatchObject({ granted: false, reason: 'budget' });
    expect(logger.warn).toHaveBeenCalledTimes(1);

    await server.start();
    await vi.waitFor(
      async () => {
        await store.acquire({ ...SCOPE, apiKey: 'probe-key' }, PACED);
        expect(logger.info).toHaveBeenCalledTimes(1);
      },
      { timeout: 5_000, interval: 250 },
    );
    expect(logger.info.mock.calls[0]?.[0]).toMatch(/Redis answers again/);
  });

  it('falls back from the fleet reading Redis last gave it, even with no response of its own', async () => {
    const [a, b] = [await processStore(), await processStore({ commandTimeout: 200 })];
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(6, 30_000) });
    await granted(b.store); // Redis answers: 6 left, one of them now out with b; two processes.
    await server.stop();

    const local: RateLimitDecision[] = [];
    for (let i = 0; i < 4; i++) local.push(await b.store.acquire(SCOPE, PACED));
    // A third (two processes, counted as three) of the 5 not yet spent: 1 goes, then b waits for
    // the window, sending no probe of its own.
    expect(local.filter((d) => d.granted)).toHaveLength(1);
    expect(local.at(-1)).toMatchObject({ granted: false, reason: 'budget' });
  });

  it('spends only its share of the budget while Redis is down: 1/(N + 1) of N processes seen', async () => {
    const stores = [await processStore(), await processStore(), await processStore(), await processStore()];
    for (const { store } of [...stores, ...stores]) {
      await store.release(SCOPE, await granted(store), { reading: reading(40, 30_000) });
    }
    const { store } = stores[0] as (typeof stores)[number];
    await server.stop();
    const decisions: RateLimitDecision[] = [];
    for (let i = 0; i < 20; i++) decisions.push(await store.acquire(SCOPE, PACED));
    // Redis last said 40 left with its own lease out: a fifth of the 39 not yet spent.
    expect(decisions.filter((d) => d.granted)).toHaveLength(7);
  });

  it('back from pacing alone, keeps to its share until the window resets, and has every process do so', async () => {
    const a = await processStore({ commandTimeout: 200, retryInterval: 200 });
    const b = await processStore();
    const leasesInRedis = async () => {
      const [key] = (await a.connection.command('KEYS', '*:leases')) as string[];
      return key === undefined ? 0 : Number(await a.connection.command('ZCARD', key));
    };
    await b.store.release(SCOPE, await granted(b.store), { reading: reading(9, 2_500) });
    await a.store.release(SCOPE, await granted(a.store), { reading: reading(8, 2_500) });
    const windowEnds = Date.now() + 2_500;
    await server.stop();
    // Alone: a third of the 8 left (two processes, counted as three).
    const alone: RateLimitDecision[] = [];
    for (let i = 0; i < 4; i++) alone.push(await a.store.acquire(SCOPE, PACED));
    expect(alone.filter((d) => d.granted)).toHaveLength(2);

    await server.start();
    await vi.waitFor(() => a.connection.command('PING'), { timeout: 5_000, interval: 50 });
    await vi.waitFor(() => b.connection.command('PING'), { timeout: 5_000, interval: 50 });
    await new Promise((resolve) => setTimeout(resolve, 250)); // a's retry interval
    // Redis answers, emptied; a has spent its share of the window it paced alone in, and says so.
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: false, reason: 'budget' });
    expect(a.logger.info.mock.calls[0]?.[0]).toMatch(
      /Redis answers again; .* when the other processes are back and the rate-limit window paced alone has reset/,
    );
    // b never lost Redis, and paces on its own share of that window too, outside Redis.
    const b1 = await b.store.acquire(SCOPE, PACED);
    expect(b1).toMatchObject({ granted: true });
    expect(await leasesInRedis()).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, windowEnds + 1_000 - Date.now()));
    // The window is over: both share the budget through Redis again.
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
    expect(await leasesInRedis()).toBe(1);
  });

  it('waits for the processes still pacing alone: until as many as were known are back, all pace alone', async () => {
    const options = { commandTimeout: 200, retryInterval: 200 };
    const [a, b, c] = [await processStore(options), await processStore(options), await processStore(options)];
    const leasesInRedis = async () => {
      const [key] = (await a.connection.command('KEYS', '*:leases')) as string[];
      return key === undefined ? 0 : Number(await a.connection.command('ZCARD', key));
    };
    const UNPACED = { leaseMs: 10_000, pacing: false };
    for (const { store } of [a, b, c, a, c]) {
      await store.release(SCOPE, await granted(store, SCOPE, UNPACED), { reading: reading(9, 500) });
    }
    await server.stop();
    // a and c notice and pace alone; b, idle, notices nothing. Redis stays away past the window.
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
    expect(await c.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await server.start();
    for (const { connection } of [a, b, c]) {
      await vi.waitFor(() => connection.command('PING'), { timeout: 5_000, interval: 50 });
    }
    await new Promise((resolve) => setTimeout(resolve, 250)); // the retry interval
    // a is back, knowing three processes, after more than a second alone: it waits as long for c.
    expect(await a.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });

    // The window a paced alone in is over, but c has not come back: b paces alone, outside Redis.
    expect(await b.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
    expect(await leasesInRedis()).toBe(0);
    // c comes back: all three are, and the budget is shared through Redis again.
    expect(await c.store.acquire(SCOPE, PACED)).toMatchObject({ granted: true });
    expect(await leasesInRedis()).toBe(1);
  });
});
