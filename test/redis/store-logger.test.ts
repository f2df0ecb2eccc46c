/**
 * Where the Redis store reports an outage: through the client's logger and log level unless the
 * store was given a logger of its own.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

/** A node-redis client whose server is away. */
const unreachableRedis = {
  sendCommand: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379')),
};

function lines() {
  return { warn: vi.fn<(message: string) => void>(), info: vi.fn<(message: string) => void>() };
}

function clientOver(options: {
  logger?: ReturnType<typeof lines>;
  logLevel?: 'off' | 'warn';
  storeLogger?: ReturnType<typeof lines>;
}) {
  const store = createFakePetStore();
  const { storeLogger, ...clientOptions } = options;
  return new PetStoreClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
    rateLimitStore: redisRateLimitStore(
      unreachableRedis,
      storeLogger === undefined ? {} : { logger: storeLogger },
    ),
    ...clientOptions,
  });
}

describe('the Redis store falling back', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("warns through the client's logger when the store has none", async () => {
    const console_ = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logger = lines();
    await clientOver({ logger }).listPets();

    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(
      /Redis is not answering \(connect ECONNREFUSED .*\); pacing in this process/,
    );
    expect(console_).not.toHaveBeenCalled();
  });

  it("is silent at the client's logLevel 'off'", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const logger = lines();
    await clientOver({ logger, logLevel: 'off' }).listPets();
    await clientOver({ logLevel: 'off' }).listPets();

    expect(logger.warn).not.toHaveBeenCalled();
    expect(warn).not.toHaveBeenCalled();
    expect(info).not.toHaveBeenCalled();
  });

  it('keeps a logger of its own when given one', async () => {
    const logger = lines();
    const storeLogger = lines();
    await clientOver({ logger, storeLogger }).listPets();

    expect(storeLogger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
