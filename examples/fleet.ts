/**
 * Many processes, one API key, one budget: three processes each send 8 listPets calls at once,
 * sharing their pacing through Redis, against a key that allows 10 requests per 3-second window.
 * Together they send no request the service would refuse, and take the three windows 24 calls need.
 *
 *   npm run example -- fleet
 *
 * It uses the Redis at REDIS_URL when set; otherwise it starts a local redis-server (REDIS_SERVER,
 * or the usual places) on a free port for the run and stops it at the end (`apt-get install
 * redis-server`, or `brew install redis`); without one it says how to get one and exits 1. On
 * the embedded fake server the key's window is 3 s, so the run takes a few seconds.
 *
 * @module
 */
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { accessSync, constants } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fakePetStoreConstants } from '../src/testing/index.js';
import { openTarget } from './support/target.js';

const PROCESSES = 3;
const CALLS = 8;
const PLAN = { perMinute: 10, perDay: 1_000, window: 3_000 };
const WORKER = fileURLToPath(new URL('./support/fleet-worker.ts', import.meta.url));
// REDIS_SERVER, when set, is the only place looked at.
const REDIS_SERVER_PLACES = process.env.REDIS_SERVER
  ? [process.env.REDIS_SERVER]
  : ['/usr/bin/redis-server', '/usr/local/bin/redis-server', '/opt/homebrew/bin/redis-server'];

function findRedisServer(): string | undefined {
  return REDIS_SERVER_PLACES.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Starts redis-server on loopback, without persistence, and waits until it accepts connections. */
async function startRedis(path: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child = spawn(
    path,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'ignore',
    },
  );
  const exited = once(child, 'exit');
  const { createClient } = await import('redis');
  for (let attempt = 0; ; attempt++) {
    const probe = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false } });
    probe.on('error', () => {});
    try {
      await probe.connect();
      await probe.close();
      break;
    } catch (error) {
      if (attempt > 100 || child.exitCode !== null) {
        child.kill();
        throw error;
      }
      await sleep(50);
    }
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: async () => {
      child.kill();
      await exited;
    },
  };
}

let redisUrl = process.env.REDIS_URL;
let stopRedis = async () => {};
if (redisUrl === undefined) {
  const path = findRedisServer();
  if (path === undefined) {
    console.log(
      'This example shares one budget between processes through Redis, and no redis-server was found.\n' +
        'Install one and run it again: `apt-get install redis-server` (Debian, Ubuntu) or ' +
        '`brew install redis` (macOS); or set REDIS_URL to a running Redis.',
    );
    process.exit(1);
  }
  const redis = await startRedis(path);
  redisUrl = redis.url;
  stopRedis = redis.stop;
  console.log(`Started ${path} on ${redis.url} for this run`);
} else {
  console.log('Using the Redis at REDIS_URL');
}

const target = await openTarget({ apiKeys: { [fakePetStoreConstants.defaultApiKey]: PLAN } });
const children: ChildProcess[] = [];
try {
  if (target.store !== undefined) {
    console.log(`The key allows ${PLAN.perMinute} requests per ${PLAN.window / 1000} s window.`);
  }
  console.log(
    `${PROCESSES} processes send ${CALLS} listPets calls each, at once, sharing one budget through Redis.`,
  );
  const started = performance.now();
  const reports = await Promise.all(
    Array.from({ length: PROCESSES }, async (_, index) => {
      const child = fork(WORKER, [], {
        execArgv: ['--import', 'tsx'],
        env: {
          ...process.env,
          REDIS_URL: redisUrl,
          PETSTORE_BASE_URL: target.baseUrl,
          PETSTORE_API_KEY: target.apiKey,
          FLEET_CALLS: String(CALLS),
        },
      });
      children.push(child);
      const [report] = (await once(child, 'message')) as [
        { succeeded: number; failures: string[]; seconds: number },
      ];
      console.log(
        `  process ${index + 1} (pid ${child.pid}): ${report.succeeded} of ${CALLS} calls succeeded in ${report.seconds.toFixed(1)} s`,
      );
      for (const failure of report.failures) console.log(`    failed: ${failure}`);
      return report;
    }),
  );
  const succeeded = reports.reduce((sum, report) => sum + report.succeeded, 0);
  console.log(
    `All processes done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${succeeded} of ${PROCESSES * CALLS} calls succeeded.`,
  );
  if (target.store !== undefined) {
    const requests = target.store.requests;
    const refused = requests.filter((request) => request.status === 429).length;
    let windows = 0;
    let windowStart = Number.NEGATIVE_INFINITY;
    for (const request of requests) {
      if (request.status === 429) continue;
      if (request.receivedAt >= windowStart + PLAN.window) {
        windows += 1;
        windowStart = request.receivedAt;
      }
    }
    const needed = Math.ceil((requests.length - refused) / PLAN.perMinute);
    console.log(
      `The server received ${requests.length} requests, ${refused} answered 429, over ${windows} windows (${needed} needed).`,
    );
  }
} finally {
  for (const child of children) if (child.exitCode === null) child.kill();
  await target.close();
  await stopRedis();
}
