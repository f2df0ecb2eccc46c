/**
 * A real `redis-server` for the tests: Debian's package, started on a free loopback port as a child
 * process, with nothing persisted, and stopped (or restarted on the same port) on demand.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { createServer, Socket } from 'node:net';

/** Debian's `redis-server` package installs the server here. */
export const DEFAULT_REDIS_SERVER_PATH = '/usr/bin/redis-server';

const HOW_TO_GET_IT =
  'The Redis tests need redis-server. On Debian or Ubuntu: `apt-get install -y redis-server`; ' +
  'elsewhere, set REDIS_SERVER to a redis-server executable.';

/** The redis-server executable to start, or an explanation of how to get one. */
export function locateRedisServer(
  env: NodeJS.ProcessEnv = process.env,
): { found: true; path: string } | { found: false; message: string } {
  const path = env.REDIS_SERVER || DEFAULT_REDIS_SERVER_PATH;
  try {
    accessSync(path, constants.X_OK);
    return { found: true, path };
  } catch {
    return { found: false, message: `No redis-server at ${path}. ${HOW_TO_GET_IT}` };
  }
}

/** A port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** A running redis-server. */
export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:<port>` */
  readonly url: string;
  /** Stops the server (its data is gone: nothing is persisted). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty; does nothing while it runs. */
  start(): Promise<void>;
}

/** Starts redis-server on a free loopback port and resolves once it answers PING. */
export async function startRedisServer(): Promise<RedisServer> {
  const located = locateRedisServer();
  if (!located.found) throw new Error(located.message);
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child !== undefined && child.exitCode === null) return;
      child = spawn(
        located.path,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      await waitForPing(port, 10_000);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
  await server.start();
  return server;
}

async function waitForPing(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ping(port)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms`);
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('data', (data) => done(data.toString().startsWith('+PONG')));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
  });
}
