/**
 * A process that closes its Redis connection exits by itself: no timer, retry or subscription of the
 * SDK keeps it alive, on one redis-server, on a cluster, or with Redis away the whole time.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../support/package-build.js';
import {
  freePort,
  type RedisCluster,
  type RedisServer,
  startRedisCluster,
  startRedisServer,
} from '../support/redis-server.js';
import type { ClosingProcessConfig } from './support/closing-process.js';
import { FLEET_KEY, type FleetStore, startFleetStore, stopEverything } from './support/fleet.js';

const SCRIPT = fileURLToPath(new URL('./support/closing-process.ts', import.meta.url));
/** Long enough for a busy machine to start Node and make six calls; the process must exit well before. */
const EXIT_WITHIN_MS = 20_000;

let server: RedisServer;
let cluster: RedisCluster;
let fake: FleetStore;
beforeAll(async () => {
  await ensurePackageBuilt();
  [server, cluster, fake] = await Promise.all([
    startRedisServer(),
    startRedisCluster(),
    startFleetStore({ limit: 1_000, windowMs: 60_000 }),
  ]);
}, 120_000);
afterAll(() => Promise.all([server?.stop(), cluster?.stop(), stopEverything()]));

/** Runs the closing process and resolves with its exit code and output, or fails past the bound. */
async function runToExit(config: ClosingProcessConfig): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [SCRIPT], {
    cwd: PACKAGE_ROOT,
    env: { ...process.env, CLOSING_PROCESS: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += String(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(timer);
  if (signal !== null) throw new Error(`It had not exited ${EXIT_WITHIN_MS} ms on; output: ${output}`);
  return { code, output };
}

describe.each(['redis', 'ioredis'] as const)('a process that closes its %s connection', (client) => {
  const base = () => ({ client, baseUrl: fake.server.url, apiKey: FLEET_KEY });

  it('exits by itself, on one redis-server', { timeout: EXIT_WITHIN_MS + 5_000 }, async () => {
    const config = { ...base(), redisUrls: [server.url], cluster: false, unreachable: false };
    expect(await runToExit(config)).toEqual({ code: 0, output: 'calls done\nclosed\n' });
  });

  it('exits by itself, on a Redis Cluster', { timeout: EXIT_WITHIN_MS + 5_000 }, async () => {
    const config = {
      ...base(),
      redisUrls: cluster.nodes.map((node) => node.url),
      cluster: true,
      unreachable: false,
    };
    expect(await runToExit(config)).toEqual({ code: 0, output: 'calls done\nclosed\n' });
  });

  it('exits by itself after pacing alone the whole time, Redis away', {
    timeout: EXIT_WITHIN_MS + 5_000,
  }, async () => {
    const config = {
      ...base(),
      redisUrls: [`redis://127.0.0.1:${await freePort()}`],
      cluster: false,
      unreachable: true,
    };
    expect(await runToExit(config)).toEqual({ code: 0, output: 'calls done\nclosed\n' });
  });
});
