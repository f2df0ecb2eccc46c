import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRateLimit } from '../../src/core/pacing/rate-limit.js';
import { serviceClock } from '../../src/core/request/response-time.js';
import { PetStoreClient } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { START, settle, startFakeClock } from '../support/fake-clock.js';
import { API_KEY, BASE_URL } from './setup.js';

describe('parseRateLimit', () => {
  it('reads the three X-RateLimit headers', () => {
    const headers = new Headers({
      'X-RateLimit-Limit': '60',
      'X-RateLimit-Remaining': '59',
      'X-RateLimit-Reset': '1795000000',
    });
    expect(parseRateLimit(headers)).toEqual({ limit: 60, remaining: 59, reset: new Date(1_795_000_000_000) });
  });

  it.each([
    ['missing', {}],
    ['partly missing', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '1' }],
    ['negative', { 'X-RateLimit-Limit': '60', 'X-RateLimit-Remaining': '-1', 'X-RateLimit-Reset': '1' }],
    ['fractional', { 'X-RateLimit-Limit': '60.5', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
    ['garbage', { 'X-RateLimit-Limit': 'lots', 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
    ['huge', { 'X-RateLimit-Limit': '1'.repeat(30), 'X-RateLimit-Remaining': '1', 'X-RateLimit-Reset': '1' }],
  ])('gives null when the headers are %s', (_, init) => {
    expect(parseRateLimit(new Headers(init))).toBeNull();
  });
});

describe('serviceClock', () => {
  const sent = Date.UTC(2026, 10, 22, 12, 0, 7);
  const headers = (date?: string) => new Headers(date === undefined ? {} : { date });

  it.each([
    ['a minute ahead', 60_000],
    ['a minute behind', -60_000],
    ['two seconds ahead', 2_000],
    ['within the same second', 0],
  ])('reads the Date header when the host clock is %s', (_, skew) => {
    expect(serviceClock()(headers(new Date(sent).toUTCString()), sent + 300 + skew)).toBe(sent);
  });

  it('keeps the skew the responses showed: the greatest least offset between the clocks', () => {
    const clock = serviceClock();
    clock(headers(new Date(sent).toUTCString()), sent + 900);
    expect(clock(headers(new Date(sent + 1_000).toUTCString()), sent + 1_050)).toBe(sent + 1_000);
    // A later response stamped early in its second says no more than what is known.
    expect(clock(headers(new Date(sent + 2_000).toUTCString()), sent + 2_990)).toBe(sent + 2_940);
  });

  it('uses the arrival time without a valid Date header ever seen', () => {
    const clock = serviceClock();
    expect(clock(headers(), 1234)).toBe(1234);
    expect(clock(headers('yesterday-ish'), 1234)).toBe(1234);
  });
});

describe('a service clock a little behind the host clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends nothing before the reset: no 429', async () => {
    startFakeClock();
    // The service runs 10 ms behind: its window, opened at 12:00:00.994 by its clock, resets at
    // 12:00:09.994, sent as 12:00:10, which the host's clock reaches 6 ms early.
    const statuses: number[] = [];
    const store = createFakePetStore({
      baseUrl: BASE_URL,
      apiKeys: { [API_KEY]: { perMinute: 1, perDay: 1_000, window: 9_000 } },
      now: () => Date.now() - 10,
    });
    const client = new PetStoreClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      pacingBurst: 1,
      maxRetries: 0,
      fetch: async (input, init) => {
        const response = await store.fetch(input, init);
        statuses.push(response.status);
        const answer = new Headers(response.headers);
        answer.set('date', new Date(Date.now() - 10).toUTCString());
        return new Response(response.body, { status: response.status, headers: answer });
      },
    });
    vi.setSystemTime(START + 1_004);
    await client.listPets();
    await settle(client.listPets());
    expect(statuses).toEqual([200, 200]);
  });
});
