import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { type Logger, PetStoreClient, PetStoreError } from '../../src/index.js';
import { consoleLines, watchConsole } from '../faults/support/leaks.js';
import { settle, useFakeClock } from '../support/fake-clock.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12, 0, 0, 250));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** A logger with every level, each a spy. */
function fullLogger() {
  return {
    error: vi.fn<(message: string) => void>(),
    warn: vi.fn<(message: string) => void>(),
    info: vi.fn<(message: string) => void>(),
    debug: vi.fn<(message: string) => void>(),
  };
}

const lines = (spy: { mock: { calls: unknown[][] } }) => spy.mock.calls.map(([line]) => String(line));

describe('logLevel', () => {
  it("at 'debug' logs one line per attempt: method, path, status, duration, attempt number and request id", async () => {
    const logger = fullLogger();
    const { client, store } = setup({ logger, logLevel: 'debug' });
    store.injectFault({ status: 503 });
    await settle(client.listPets({ limit: 5 }));
    const attempts = lines(logger.debug).filter((line) => line.includes('attempt'));
    expect(attempts).toHaveLength(2);
    const [first, second] = store.requests.map((request) => request.requestId);
    expect(attempts[0]).toMatch(
      new RegExp(
        `^animal-store-sdk: GET /pets\\?limit=5 -> 503 in \\d+ ms \\(attempt 1, request id ${first}\\)$`,
      ),
    );
    expect(attempts[1]).toMatch(
      new RegExp(
        `^animal-store-sdk: GET /pets\\?limit=5 -> 200 in \\d+ ms \\(attempt 2, request id ${second}\\)$`,
      ),
    );
  });

  it("at 'info' logs each retry decision with its reason and wait, and each rate-limit wait", async () => {
    const logger = fullLogger();
    const waits: RateLimitWait[] = [];
    const { client, store } = setup(
      { logger, logLevel: 'info', onWait: (wait) => waits.push(wait) },
      { apiKeys: { [API_KEY]: { perMinute: 1, perDay: 100 } } },
    );
    store.injectFault({ status: 503 });
    store.injectFault({ status: 429, headers: { 'retry-after': '2' } });
    await settle(client.listPets());
    await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    store.injectFault({ status: 500 });
    await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    const info = lines(logger.info);
    // The backoff is logged as the wait taken, jitter applied: 250 to 500 ms before the first retry.
    const backoff = info.map((line) =>
      /^animal-store-sdk: GET \/pets got 503; retry 1 in (\d+) ms \(backoff\)$/.exec(line),
    );
    const backoffMs = Number(backoff.find((match) => match !== null)?.[1]);
    expect(backoffMs).toBeGreaterThanOrEqual(250);
    expect(backoffMs).toBeLessThanOrEqual(500);
    expect(info).toContain('animal-store-sdk: GET /pets got 429; retry 2 in 2000 ms, as the service asked');
    expect(waits.slice(0, 2)).toEqual([
      { operation: 'listPets', waitMs: backoffMs, reason: 'backoff' },
      { operation: 'listPets', waitMs: 2000, reason: 'retry-after' },
    ]);
    expect(
      info.some((line) =>
        /^animal-store-sdk: createPet waits \d+ ms for the rate limit \(budget\)$/.test(line),
      ),
    ).toBe(true);
    expect(info).toContain('animal-store-sdk: POST /pets is not retried: 500; POST is not idempotent');
    expect(logger.debug).not.toHaveBeenCalled();
  });

  it("at the default 'warn' logs only warnings, and 'off' not even those", async () => {
    const logger = fullLogger();
    const { client, store } = setup({ logger });
    store.injectFault({ status: 503 });
    store.injectFault({ status: 200, body: [], headers: { Sunset: 'Tue, 01 Jan 2030 00:00:00 GMT' } });
    await settle(client.listPets());
    expect(logger.debug).not.toHaveBeenCalled();
    expect(logger.info).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledOnce();

    const quiet = fullLogger();
    const silent = setup({ logger: quiet, logLevel: 'off' });
    silent.store.injectFault({ status: 503 });
    await settle(silent.client.request({ method: 'GET', path: '/store/sunset' }));
    for (const spy of Object.values(quiet)) expect(spy).not.toHaveBeenCalled();
  });

  it('sends every level to warn when the logger has only warn', async () => {
    const logger = { warn: vi.fn<(message: string) => void>() };
    const { client } = setup({ logger, logLevel: 'debug' });
    await settle(client.listPets());
    expect(lines(logger.warn).some((line) => line.includes('(attempt 1, request id req_'))).toBe(true);
  });

  it('reads PETSTORE_LOG when the option is not given; the option wins', async () => {
    vi.stubEnv('PETSTORE_LOG', 'DEBUG');
    const logger = fullLogger();
    await settle(setup({ logger }).client.listPets());
    expect(logger.debug).toHaveBeenCalled();

    const quiet = fullLogger();
    await settle(setup({ logger: quiet, logLevel: 'warn' }).client.listPets());
    expect(quiet.debug).not.toHaveBeenCalled();
  });

  it('refuses an unknown level, from the option or the environment', () => {
    expect(
      () => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, logLevel: 'verbose' as never }),
    ).toThrow(PetStoreError);
    vi.stubEnv('PETSTORE_LOG', 'loud');
    expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL })).toThrow(/PETSTORE_LOG/);
  });

  it('never writes the key, at debug, through console, even when the path or the service carries it', async () => {
    watchConsole();
    const { client, store } = setup({ logger: console as Logger, logLevel: 'debug' });
    store.injectFault({ status: 503, headers: { 'X-Echo': `Bearer ${API_KEY}` }, body: `key ${API_KEY}` });
    store.injectFault({
      status: 200,
      body: [],
      headers: { Deprecation: '@1767225600', Link: `<https://example.test/?key=${API_KEY}>` },
    });
    await settle(client.listPets());
    await settle(client.request({ method: 'GET', path: `/store/${API_KEY}`, query: { key: API_KEY } }));
    await settle(client.request({ method: 'POST', path: '/pets', body: { name: API_KEY } }));
    const written = consoleLines();
    expect(written.some((line) => line.includes('(attempt 1, request id req_'))).toBe(true);
    expect(written.some((line) => line.includes('[redacted]'))).toBe(true);
    for (const line of written) expect(line).not.toContain(API_KEY);
  });
});
