import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { type Fetch, PetStoreClient } from '../../src/index.js';
import { START, settle, useFakeClock } from '../support/fake-clock.js';
import { API_KEY, BASE_URL } from './setup.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** How the service says how long to wait. */
type Form = 'Retry-After seconds' | 'Retry-After HTTP-date' | 'X-RateLimit-Reset only';

const ASKED_MS = 2_000;

/**
 * A service whose clock is `offsetMs` ahead of this host's: its first answer is `status` asking for
 * {@link ASKED_MS} in the given form, stamped with its own `Date`; then 200. Records when (on the
 * host's clock) each attempt was sent.
 */
function skewedService(offsetMs: number, form: Form, status = 429) {
  const sentAt: number[] = [];
  const fetch: Fetch = async () => {
    sentAt.push(Date.now());
    const serviceNow = Date.now() + offsetMs;
    const headers: Record<string, string> = {
      'Content-Type': 'application/json',
      Date: new Date(serviceNow).toUTCString(),
    };
    const window = (remaining: number, resetMs: number) => {
      headers['X-RateLimit-Limit'] = '60';
      headers['X-RateLimit-Remaining'] = String(remaining);
      headers['X-RateLimit-Reset'] = String(Math.ceil((serviceNow + resetMs) / 1000));
    };
    if (sentAt.length > 1) {
      window(59, 60_000);
      return new Response('[]', { status: 200, headers });
    }
    if (form === 'Retry-After seconds') headers['Retry-After'] = String(ASKED_MS / 1000);
    if (form === 'Retry-After HTTP-date') {
      headers['Retry-After'] = new Date(serviceNow + ASKED_MS).toUTCString();
    }
    if (form === 'X-RateLimit-Reset only') window(0, ASKED_MS);
    const body = JSON.stringify({ code: 'rate_limited', message: 'Slow down', status });
    return new Response(body, { status, headers });
  };
  return { fetch, sentAt };
}

function clientOf(fetch: Fetch) {
  const waits: RateLimitWait[] = [];
  const info = vi.fn<(line: string) => void>();
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: BASE_URL,
    fetch,
    logger: { warn: () => {}, info },
    logLevel: 'info',
    onWait: (wait) => waits.push(wait),
  });
  return { client, waits, info };
}

const OFFSETS = [-60_000, -3_000, 0, 3_000, 60_000];
const FORMS: Form[] = ['Retry-After seconds', 'Retry-After HTTP-date', 'X-RateLimit-Reset only'];

describe('a retry after a 429 waits what the service asked, whatever this host clock says', () => {
  const cases = OFFSETS.flatMap((offset) => FORMS.map((form) => [offset, form] as const));

  it.each(cases)('service clock %i ms off, %s', async (offset, form) => {
    vi.setSystemTime(START);
    const { fetch, sentAt } = skewedService(offset, form);
    const { client, waits, info } = clientOf(fetch);
    const { error } = await settle(client.listPets(), 10);
    expect(error).toBeUndefined();
    expect(sentAt).toHaveLength(2);
    const taken = (sentAt[1] as number) - (sentAt[0] as number);
    expect(taken).toBe(ASKED_MS);
    // The wait taken is the wait reported, once, and the wait logged.
    const reason = form === 'X-RateLimit-Reset only' ? 'reset' : 'retry-after';
    expect(waits).toEqual([{ operation: 'listPets', waitMs: taken, reason }]);
    expect(info.mock.calls.map(([line]) => line)).toEqual([
      expect.stringMatching(new RegExp(`^animal-store-sdk: GET /pets got 429; retry 1 in ${taken} ms, `)),
    ]);
  });

  it.each(OFFSETS)(
    'service clock %i ms off, mid-second: an HTTP-date wait errs long by less than its one-second granularity',
    async (offset) => {
      vi.setSystemTime(START + 400);
      const { fetch, sentAt } = skewedService(offset, 'Retry-After HTTP-date');
      const { client, waits } = clientOf(fetch);
      await settle(client.listPets(), 10);
      const taken = (sentAt[1] as number) - (sentAt[0] as number);
      // Asked: until the service's second two seconds after it answered, at x.400 of its second.
      expect(taken).toBeGreaterThanOrEqual(ASKED_MS - 400);
      expect(taken).toBeLessThan(ASKED_MS - 400 + 1_000);
      expect(waits).toEqual([{ operation: 'listPets', waitMs: taken, reason: 'retry-after' }]);
    },
  );

  it.each(OFFSETS)(
    'service clock %i ms off: a 503 with an HTTP-date Retry-After waits what it asked',
    async (offset) => {
      vi.setSystemTime(START);
      const { fetch, sentAt } = skewedService(offset, 'Retry-After HTTP-date', 503);
      const { client, waits } = clientOf(fetch);
      await settle(client.listPets(), 10);
      expect((sentAt[1] as number) - (sentAt[0] as number)).toBe(ASKED_MS);
      expect(waits).toEqual([{ operation: 'listPets', waitMs: ASKED_MS, reason: 'retry-after' }]);
    },
  );
});
