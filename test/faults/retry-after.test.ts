import { describe, expect, it } from 'vitest';
import { RateLimitError, RefusedError } from '../../src/index.js';
import { START, settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { attempts, created, createPet, listPets, matching, type Operation } from './support/operations.js';
import { dropRateLimitHeaders, editingResponseHeaders } from './support/response-headers.js';

useFaultHarness();

const MAX_RETRY_AFTER = 60_000;

/** The client and store, with the `X-RateLimit-*` headers removed so only `Retry-After` speaks. */
function withoutRateLimitHeaders() {
  return faultSetup({
    client: { maxRetryAfter: MAX_RETRY_AFTER },
    through: (fetch) => editingResponseHeaders(fetch, dropRateLimitHeaders),
  });
}

function refuseOnce(
  store: ReturnType<typeof faultSetup>['store'],
  operation: Operation,
  retryAfter?: string,
) {
  store.injectFault({
    match: matching(operation),
    status: 429,
    ...(retryAfter === undefined ? {} : { headers: { 'Retry-After': retryAfter } }),
  });
}

const honoured: [string, string | undefined, number, number][] = [
  // [case, Retry-After, least wait, most wait]
  ['delta-seconds', '3', 3_000, 3_500],
  ['an HTTP-date 5 s ahead', new Date(START + 5_000).toUTCString(), 5_000, 5_500],
  ['an HTTP-date in the past', new Date(START - 60_000).toUTCString(), 0, 500],
  // Without usable timing the client backs off: 500 ms, half of it jittered.
  ['garbage', 'soon, promise', 250, 1_000],
  ['absent', undefined, 250, 1_000],
];

describe.each([listPets, createPet])('a 429 on $name, then success', (operation) => {
  it.each(honoured)(
    'Retry-After as %s: waits as asked, then succeeds',
    async (_, retryAfter, least, most) => {
      const { client, store, logger } = withoutRateLimitHeaders();
      refuseOnce(store, operation, retryAfter);
      const { error, elapsed } = await settle(operation.call(client), 10);
      expect(error).toBeUndefined();
      expect(elapsed).toBeGreaterThanOrEqual(least);
      expect(elapsed).toBeLessThan(most);
      expect(attempts(store, operation)).toBe(2);
      expect(created(store)).toBe(operation === createPet ? 1 : 0);
      expectKeyHidden(error, logger);
    },
  );
});

describe.each([listPets, createPet])('a Retry-After beyond maxRetryAfter on $name', (operation) => {
  it('fails at once with RateLimitError, sends nothing more, and keeps the cooldown', async () => {
    const { client, store, logger } = withoutRateLimitHeaders();
    refuseOnce(store, operation, '86400');
    const { error, elapsed } = await settle(operation.call(client));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 86_400_000 });
    expect(elapsed).toBeLessThan(1_000);
    expect(attempts(store, operation)).toBe(1);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);

    const next = await settle(operation.call(client));
    expect(next.error).toBeInstanceOf(RefusedError);
    expect(next.error).toMatchObject({ code: 'client_rate_limited', sent: 'no' });
    expect(store.requests).toHaveLength(1);
    expectKeyHidden(next.error, logger);
  });
});

describe('Retry-After against the rate-limit headers', () => {
  it('waits until X-RateLimit-Reset when the 429 has no Retry-After and the window is spent', async () => {
    const { client, store, logger } = faultSetup();
    const resetSeconds = START / 1000 + 5;
    store.injectFault({
      status: 429,
      headers: {
        'X-RateLimit-Limit': '300',
        'X-RateLimit-Remaining': '0',
        'X-RateLimit-Reset': `${resetSeconds}`,
      },
    });
    const { error, elapsed } = await settle(client.listPets(), 10);
    expect(error).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(5_000);
    expect(elapsed).toBeLessThan(5_500);
    expect(store.requests).toHaveLength(2);
    expectKeyHidden(error, logger);
  });

  it('prefers Retry-After to X-RateLimit-Reset while the window has requests left', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({
      status: 429,
      headers: {
        'Retry-After': '2',
        'X-RateLimit-Limit': '300',
        'X-RateLimit-Remaining': '5',
        'X-RateLimit-Reset': `${START / 1000 + 30}`,
      },
    });
    const { error, elapsed } = await settle(client.listPets(), 10);
    expect(error).toBeUndefined();
    expect(elapsed).toBeGreaterThanOrEqual(2_000);
    expect(elapsed).toBeLessThan(2_500);
    expectKeyHidden(error, logger);
  });
});

describe.each([listPets, createPet])('429 on every attempt of $name', (operation) => {
  it('gives up with RateLimitError after maxRetries retries and creates nothing', async () => {
    const { client, store, logger } = withoutRateLimitHeaders();
    store.injectFault({
      match: matching(operation),
      status: 429,
      times: Infinity,
      headers: { 'Retry-After': '1' },
    });
    const { error } = await settle(operation.call(client, { maxRetries: 2 }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, retryAfterMs: 1_000, code: 'rate_limited' });
    expect(attempts(store, operation)).toBe(3);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });
});
