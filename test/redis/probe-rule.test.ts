/**
 * The probes' backoff is written twice, in TypeScript for the in-process store and in Lua for the
 * Redis store's script: here both answer the same inputs, drawn at random, with the Lua run by a
 * real redis-server.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { probeBackoffMs } from '../../src/core/pacing/probe.js';
import { PROBE_LUA } from '../../src/redis/scripts/probe.js';
import { type RedisServer, startRedisServer } from '../support/redis-server.js';
import { type ConnectedClient, connect } from './support/clients.js';

const SCRIPT = `
${PROBE_LUA}
return probe_backoff(tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]))
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

it('backs off as the TypeScript rule does, for any run of silences, jitter and pace', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 1, max: 40 }),
      fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 60_000 }), fc.constant(6_000.5)),
      async (silences, jitter, paceMs) => {
        const backoff = await redis.command(
          'EVAL',
          SCRIPT,
          '0',
          String(silences),
          String(jitter),
          String(paceMs),
        );
        // Redis replies with a Lua number truncated to an integer.
        expect(Number(backoff)).toBe(Math.floor(probeBackoffMs(silences, jitter, paceMs)));
      },
    ),
    { numRuns: 300 },
  );
});
