/**
 * Silence is not budget, across real processes: the `animal-store-fake-server` command with 10
 * requests per 4-second window, its answers lost or stalled through the control API, and a
 * `listPets` every 50 ms for 12 s (`callTimeout: 2500`), by one client, or by two clients each on
 * its own connection to one Redis store (as two processes of a fleet). Real time throughout: the
 * command and Redis keep their own clocks. Slowness on a busy machine only sends fewer requests.
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { redisRateLimitStore } from '../../src/redis/index.js';
import type { RateLimitStore } from '../../src/store/index.js';
import type { RemoteChaosOptions, RemoteFaultOptions } from '../../src/testing/control/connect.js';
import { connectFakePetStore } from '../../src/testing/index.js';
import { type ConnectedClient, connect } from '../redis/support/clients.js';
import { run, waitForUrl } from '../support/cli-process.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';

const LIST_PETS = { method: 'GET', path: '/pets' } as const;
const RUN_MS = 12_000;
/** The run, the calls' bounds to settle, the command's start: on a busy 2-core machine. */
const TEST_TIMEOUT_MS = 60_000;

let redis: RedisServer;
const connections: ConnectedClient[] = [];
beforeAll(async () => {
  redis = await startRedisServer();
}, 30_000);
afterAll(async () => {
  for (const connection of connections.splice(0)) await connection.close();
  await redis?.stop();
});

interface Scenario {
  readonly fault?: RemoteFaultOptions;
  readonly chaos?: RemoteChaosOptions;
  /** One good call first, so that the clients hold a reading when the answers go. */
  readonly firstReading?: boolean;
  /** Two clients on one Redis store, rather than one client. */
  readonly redis?: boolean;
}

let keys = 0;

/** Runs the demand against a fresh command; what the command received in the 12 s. */
async function scenario(context: TestContext, { fault, chaos, firstReading, redis: shared }: Scenario) {
  const key = `sk-silence-${process.pid}-${++keys}`;
  const cli = run(['--port', '0', '--key', key, '--limit', '10', '--window', '4000'], context);
  const baseUrl = await waitForUrl(cli);
  const fake = connectFakePetStore(baseUrl);
  const stores: (RateLimitStore | undefined)[] = [undefined];
  if (shared) {
    const pair = [await connect('node-redis', redis.url), await connect('ioredis', redis.url)];
    connections.push(...pair);
    stores.splice(0, 1, ...pair.map((connection) => redisRateLimitStore(connection.client)));
  }
  const clients = stores.map(
    (rateLimitStore) =>
      new PetStoreClient({
        apiKey: key,
        baseUrl,
        callTimeout: 2_500,
        logger: { warn: () => {} },
        ...(rateLimitStore && { rateLimitStore }),
      }),
  );
  if (firstReading) await clients[0]?.listPets();
  if (fault) await fake.injectFault(fault);
  if (chaos) await fake.injectChaos(chaos);
  const since = Date.now();
  const calls: Promise<unknown>[] = [];
  const started = performance.now();
  for (let index = 0; performance.now() - started < RUN_MS; index++) {
    calls.push((clients[index % clients.length] as PetStoreClient).listPets().catch(() => undefined));
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(calls);
  const requests = (await fake.requests).filter(
    (request) => request.receivedAt >= since && request.receivedAt < since + RUN_MS,
  );
  const refused = requests.filter((request) => request.response?.status === 429);
  return {
    requests: requests.length,
    refused: refused.length,
    banned: refused.filter((request) => request.response?.body.includes('api_key_banned')).length,
  };
}

const everyAnswer = (afterOperation: 'lost-response' | 'stalled-response'): RemoteFaultOptions => ({
  afterOperation,
  match: LIST_PETS,
  times: Number.POSITIVE_INFINITY,
});
const aFifthLost: RemoteChaosOptions = { seed: 7, rate: 0.2, faults: ['lost-response'], match: LIST_PETS };

describe.concurrent('the command fake, its answers lost or stalled', () => {
  it(
    'never bans the key, and gets at most 30 requests in 12 s, when every answer is lost',
    async (context) => {
      const seen = await scenario(context, { fault: everyAnswer('lost-response') });
      expect(seen.banned).toBe(0);
      expect(seen.requests).toBeLessThanOrEqual(30);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'two clients on one Redis store: never banned, at most 30 requests, when every answer is lost',
    async (context) => {
      const seen = await scenario(context, { fault: everyAnswer('lost-response'), redis: true });
      expect(seen.banned).toBe(0);
      expect(seen.requests).toBeLessThanOrEqual(30);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'two clients on one Redis store: no 429 when every answer stalls after a reading',
    async (context) => {
      const seen = await scenario(context, {
        fault: everyAnswer('stalled-response'),
        firstReading: true,
        redis: true,
      });
      expect(seen.refused).toBe(0);
      expect(seen.requests).toBeGreaterThan(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'two clients on one Redis store: no 429 when a fifth of the answers are lost after a reading',
    async (context) => {
      const seen = await scenario(context, { chaos: aFifthLost, firstReading: true, redis: true });
      expect(seen.refused).toBe(0);
      expect(seen.requests).toBeGreaterThan(10);
    },
    TEST_TIMEOUT_MS,
  );
});
