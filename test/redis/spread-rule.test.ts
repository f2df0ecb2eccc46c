/**
 * The spread rule is written twice, in TypeScript for the in-process store and in Lua for the Redis
 * store's script: here both answer the same inputs, drawn at random, with the Lua run by a real
 * redis-server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spread } from '../../src/core/pacing/spread.js';
import { SPREAD_LUA } from '../../src/redis/scripts/spread.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { type ConnectedClient, connect } from './support/clients.js';

const SCRIPT = `
local now = tonumber(ARGV[1])
${SPREAD_LUA}
local bucket_window = ARGV[2] ~= '' and ARGV[2] or nil
local wait, credit = spread(bucket_window, tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5], tonumber(ARGV[6]),
  tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9]))
return {wait, credit or -1}
`;

let server: RedisServer;
let redis: ConnectedClient;
beforeAll(async () => {
  server = await startRedisServer();
  redis = await connect('ioredis', server.url);
}, 60_000);
afterAll(async () => {
  await redis?.close();
  await server?.stop();
});

const WINDOW = 1_800_000_000;
const NOW = 1_795_000_000_000;

const input = fc.record({
  bucket: fc.option(
    fc.record({
      window: fc.constantFrom(WINDOW, WINDOW - 60),
      credit: fc.integer({ min: 0, max: 200_000 }),
      sinceMs: fc.integer({ min: 0, max: 120_000 }),
    }),
    { nil: undefined },
  ),
  limit: fc.integer({ min: 1, max: 10_000 }),
  spent: fc.double({ min: 0, max: 1, noNaN: true }),
  resetInMs: fc.integer({ min: 0, max: 120_000 }),
  burst: fc.constantFrom(0.01, 0.05, 0.1, 0.2, 0.25, 1 / 3, 0.5, 0.9),
});

it('answers as the TypeScript rule does, wait and credit, for any bucket, budget and time left', async () => {
  await fc.assert(
    fc.asyncProperty(input, async ({ bucket, limit, spent, resetInMs, burst }) => {
      const available = Math.max(1, Math.round(limit * (1 - spent)));
      const stored = bucket && { window: bucket.window, credit: bucket.credit, at: NOW - bucket.sinceMs };
      const expected = spread(stored, WINDOW, NOW, available, resetInMs, limit, burst);
      const [wait, credit] = (await redis.command(
        'EVAL',
        SCRIPT,
        '0',
        String(NOW),
        stored ? String(stored.window) : '',
        String(stored?.credit ?? ''),
        String(stored?.at ?? ''),
        String(WINDOW),
        String(available),
        String(resetInMs),
        String(limit),
        String(burst),
      )) as [number, number];
      expect([wait, credit]).toEqual([expected.waitMs, expected.waitMs > 0 ? -1 : expected.bucket.credit]);
    }),
    { numRuns: 300 },
  );
});
