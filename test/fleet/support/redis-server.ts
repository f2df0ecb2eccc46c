/**
 * A real `redis-server` as a child process on a free loopback port, with no persistence, that a test
 * can stop, start again on the same port (an empty Redis, as after a restart that lost its data) and
 * flush the scripts of (NOSCRIPT on the next EVALSHA).
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createConnection, createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { locateRedisServer } from '../../support/redis.js';

const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

/** A redis-server the test controls. */
export interface RedisServer {
  /** The port it listens on, the same across restarts. */
  readonly port: number;
  /** `redis://127.0.0.1:<port>`. */
  readonly url: string;
  /** Whether it is running now. */
  readonly running: boolean;
  /** Sends one command (RESP) and resolves with the raw reply, e.g. `+OK\r\n`. */
  command(...args: string[]): Promise<string>;
  /** Stops it at once (SIGKILL unless `graceful`), and waits until its process has exited. */
  stop(options?: { graceful?: boolean }): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Sends one RESP command to 127.0.0.1:port and resolves with the first reply chunk. */
function sendCommand(port: number, args: readonly string[], timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis on port ${port} did not answer ${args[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    socket.once('data', (data) => {
      clearTimeout(timer);
      socket.end();
      resolve(data.toString());
    });
    const encoded = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
    socket.write(`*${args.length}\r\n${encoded}`);
  });
}

/**
 * Starts a redis-server on a free loopback port: `--save '' --appendonly no`, so nothing survives a
 * stop. Throws with how to install it when there is none.
 */
export async function startRedisServer(): Promise<RedisServer> {
  const located = locateRedisServer();
  if (!located.found) throw new Error(located.message);
  const port = await freePort();
  let child: ChildProcess | undefined;
  let output = '';

  const launch = async (): Promise<void> => {
    output = '';
    const started = spawn(
      located.path,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--loglevel',
        'warning',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    started.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null) {
        throw new Error(`redis-server exited at start (port ${port}): ${output}`);
      }
      const reply = await sendCommand(port, ['PING'], 500).catch(() => '');
      if (reply.startsWith('+PONG')) return;
      if (Date.now() > deadline) {
        started.kill('SIGKILL');
        throw new Error(
          `redis-server did not answer on port ${port} within ${START_TIMEOUT_MS} ms: ${output}`,
        );
      }
      await sleep(25);
    }
  };

  const isRunning = () => child !== undefined && child.exitCode === null && child.signalCode === null;

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    get running() {
      return isRunning();
    },
    command: (...args) => sendCommand(port, args),
    async stop({ graceful = false } = {}) {
      const current = child;
      if (current === undefined || !isRunning()) return;
      const exited = once(current, 'exit');
      if (graceful) await sendCommand(port, ['SHUTDOWN', 'NOSAVE']).catch(() => '');
      else current.kill('SIGKILL');
      const timer = setTimeout(() => current.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
    async start() {
      if (isRunning()) throw new Error(`redis-server on port ${port} is already running`);
      await launch();
    },
  };
}
