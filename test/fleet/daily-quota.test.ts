/**
 * A day's quota used up: the 429 asks for hours, beyond `maxRetryAfter`, and through Redis that wait
 * becomes every process's cooldown, including processes started after it.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import {
  FLEET_KEY,
  type FleetPlan,
  runAll,
  startFleet,
  startWorker,
  startWorkers,
  stopEverything,
  withRedis,
} from './support/fleet.js';

// 10 requests per 2 s window, 20 a day: the day runs out in the second window.
const PLAN: FleetPlan = { limit: 10, windowMs: 2_000, perDay: 20 };
const HOUR_MS = 3_600_000;

beforeAll(() => ensurePackageBuilt(), 120_000);
afterEach(() => stopEverything());

/**
 * Another application on the same key, outside the fleet's Redis: it spends the rest of the day,
 * waiting out each window it fills, and returns once the service refuses it for the day.
 */
async function spendTheDay(baseUrl: string): Promise<void> {
  for (let sent = 0; sent < 100; sent++) {
    const response = await fetch(`${baseUrl.replace(/\/?$/, '/')}pets?limit=1`, {
      headers: { authorization: `Bearer ${FLEET_KEY}` },
    });
    await response.arrayBuffer();
    if (response.status !== 429) continue;
    const waitMs = Number(response.headers.get('retry-after')) * 1000;
    if (waitMs > HOUR_MS) return;
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  throw new Error('The day never ran out');
}

describe.each(['redis', 'ioredis'] as const)('a daily quota used up, with %s', (store) => {
  it('the first 429 for the day stops every process at once, and processes started later', {
    timeout: 60_000,
  }, async () => {
    const { fake, redis, config } = await startFleet(store, PLAN).then(withRedis);
    const workers = await startWorkers(3, config);
    const first = await runAll(workers, { calls: 2, concurrency: 2 });
    expect(first.flatMap((result) => result.failures)).toEqual([]);
    await spendTheDay(fake.server.url);
    // Past the reset the fleet last read (whole seconds, rounded up): it learns the budget anew.
    await new Promise((resolve) => setTimeout(resolve, PLAN.windowMs + 1_000));
    const fleetRequests = () => fake.store.requests.filter((request) => request.headers['x-fleet-worker']);
    const before = fleetRequests().length;

    const results = await runAll(workers, { calls: 4, concurrency: 2 });

    // One request learned that the day is over; every other call failed without sending.
    const sent = fleetRequests().slice(before);
    expect(sent.map((request) => request.status)).toEqual([429]);
    const failures = results.flatMap((result) => result.failures);
    expect(failures).toHaveLength(12);
    // The call that sent it has the service's 429; the others are refused without sending.
    expect(failures.filter((failure) => failure.name === 'RateLimitError')).toMatchObject([{ status: 429 }]);
    expect(failures.filter((failure) => failure.name === 'RefusedError')).toHaveLength(11);
    for (const failure of failures) {
      if (failure.name === 'RefusedError') expect(failure).toMatchObject({ code: 'client_rate_limited' });
      expect(failure.retryAfterMs).toBeGreaterThan(HOUR_MS);
    }
    // The cooldown lives in Redis for as long as it lasts.
    const [key] = /animal-store-sdk:\{[^}]+\}:state/.exec(await redis.command('KEYS', '*:state')) ?? [];
    expect(Number((await redis.command('PTTL', key ?? '')).slice(1))).toBeGreaterThan(HOUR_MS);

    // A process started after the 429 sends nothing either.
    const latecomer = await startWorker({ ...config, name: 'latecomer' });
    const late = await latecomer.run({ calls: 3, concurrency: 3 });
    expect(late.failures.map((failure) => failure.name)).toEqual(Array(3).fill('RefusedError'));
    expect(fleetRequests().length).toBe(before + 1);
  });

  it('a 429 asking for hours holds the fleet though its headers show the window has budget left', {
    timeout: 60_000,
  }, async () => {
    const { fake, config } = await startFleet(store, PLAN).then(withRedis);
    const workers = await startWorkers(3, config);
    await runAll(workers, { calls: 1, concurrency: 1 });
    // Past the reading's reset, so that one request learns the budget alone: the reset header rounds
    // the window's end up to a whole second, and each worker reads the service's time from one
    // whole-second Date at its earliest, so a reading holds up to 2 s past the window's end.
    await new Promise((resolve) => setTimeout(resolve, PLAN.windowMs + 2_500));
    // As a service might answer once the day is out: Retry-After for the day, the minute's headers.
    fake.store.injectFault({ status: 429, headers: { 'Retry-After': String(5 * 3_600) } });
    const before = fake.store.requests.length;

    const results = await runAll(workers, { calls: 3, concurrency: 2 });

    const sent = fake.store.requests.slice(before);
    expect(sent.map((request) => request.status)).toEqual([429]);
    const failures = results.flatMap((result) => result.failures);
    expect(failures).toHaveLength(9);
    for (const failure of failures) expect(failure.retryAfterMs).toBeGreaterThan(4 * HOUR_MS);
    const latecomer = await startWorker({ ...config, name: 'latecomer' });
    expect((await latecomer.run({ calls: 2, concurrency: 2 })).failures).toHaveLength(2);
    expect(fake.store.requests.length).toBe(before + 1);
  });
});
