/**
 * `npm run example -- fleet`: three processes on one key through a local redis-server, as a newcomer
 * runs it. Here, with the fleet tests, because it needs redis-server.
 */
import { describe, expect, it } from 'vitest';
import { outputOf, RUN_TIMEOUT_MS, runExample as run } from '../examples/support/run-example.js';
import { locateRedisServer } from '../support/redis-server.js';

describe('the fleet example', { timeout: 2 * RUN_TIMEOUT_MS }, () => {
  it('fleet paces three processes on one key through a local redis-server, with no 429', async () => {
    const redisServer = locateRedisServer();
    const result = await run('fleet.ts', [], redisServer.found ? { REDIS_SERVER: redisServer.path } : {});
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result);
    expect(output).toMatch(/^Started \S*redis-server on redis:\/\/127\.0\.0\.1:\d+ for this run$/m);
    expect(output).toContain('embedded fake server');
    expect(output).toContain('The key allows 10 requests per 3 s window.');
    expect(output.match(/process \d \(pid \d+\): 8 of 8 calls succeeded/g)).toHaveLength(3);
    expect(output).toMatch(/All processes done in \d+\.\d s: 24 of 24 calls succeeded\./);
    const summary =
      /The server received (\d+) requests, (\d+) answered 429, over (\d+) windows \((\d+) needed\)/.exec(
        output,
      );
    expect(Number(summary?.[2])).toBeLessThanOrEqual(1);
    expect(Number(summary?.[3])).toBeLessThanOrEqual(Number(summary?.[4]) + 1);
  });
});
