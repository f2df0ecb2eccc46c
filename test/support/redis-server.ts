/**
 * A real `redis-server` for the tests: Debian's package, started on a free loopback port as a child
 * process, with nothing persisted, and stopped (or restarted on the same port) on demand; or three
 * of them joined in a Redis Cluster; and one raw command to any of them.
 *
 * @module
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

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

/** A port nobody listens on right now, and none of `taken` (to which it is added). */
export async function freePort(taken = new Set<number>()): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise((resolve) => server.close(resolve));
    if (address === null || typeof address === 'string') throw new Error('no port');
    if (taken.has(address.port)) continue;
    taken.add(address.port);
    return address.port;
  }
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
  const server = serverOn(await freePort(), []);
  await server.start();
  return server;
}

/** A Redis Cluster of masters on loopback, each a {@link RedisServer} that can be stopped and restarted. */
export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** Stops every node and removes the cluster's files. */
  stop(): Promise<void>;
}

/**
 * Starts `masters` redis-servers with `--cluster-enabled yes` (each with its cluster bus on a port of
 * its own), joins them with `redis-cli --cluster create`, and resolves once every node reports the
 * cluster's state `ok`. A node stopped and started again keeps its identity and slots (its
 * nodes.conf stays), empty of data, as a restarted cluster node without persistence is.
 */
export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const located = locateRedisServer();
  if (!located.found) throw new Error(located.message);
  const cli = locateRedisCli(located.path);
  const dir = await mkdtemp(join(tmpdir(), 'animal-store-redis-cluster-'));
  const nodes: RedisServer[] = [];
  const taken = new Set<number>();
  const cluster: RedisCluster = {
    nodes,
    async stop() {
      await Promise.all(nodes.map((node) => node.stop()));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    for (let i = 0; i < masters; i++) {
      const [port, busPort] = [await freePort(taken), await freePort(taken)];
      const node = serverOn(port, [
        '--cluster-enabled',
        'yes',
        '--cluster-port',
        String(busPort),
        '--cluster-config-file',
        join(dir, `nodes-${port}.conf`),
        '--cluster-node-timeout',
        String(CLUSTER_NODE_TIMEOUT_MS),
        '--dir',
        dir,
      ]);
      nodes.push(node);
      await node.start();
    }
    await execFileAsync(
      cli,
      ['--cluster', 'create', ...nodes.map((node) => `127.0.0.1:${node.port}`), '--cluster-yes'],
      { timeout: 30_000 },
    );
    await waitForClusterOk(nodes, 30_000);
    return cluster;
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** Resolves once every node says `cluster_state:ok`, as after a node rejoined. */
export async function waitForClusterOk(nodes: readonly RedisServer[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const states = await Promise.all(
      nodes.map((node) => rawCommand(node.port, ['CLUSTER', 'INFO']).catch(() => '')),
    );
    if (states.every((state) => state.includes('cluster_state:ok'))) return;
    if (Date.now() > deadline) throw new Error(`The Redis Cluster was not ok within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * How long a cluster node may be silent before the others mark it failing. Short, so a test that
 * stops a node sees the cluster refuse commands soon, as a production cluster does after its own.
 */
const CLUSTER_NODE_TIMEOUT_MS = 1_000;

/** redis-cli comes with redis-server (Debian's package installs both in /usr/bin). */
function locateRedisCli(serverPath: string): string {
  const beside = join(dirname(serverPath), 'redis-cli');
  for (const path of [beside, '/usr/bin/redis-cli']) {
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {}
  }
  throw new Error(`No redis-cli beside ${serverPath}. ${HOW_TO_GET_IT}`);
}

/** A redis-server on `port`, started with `extra` arguments, not yet running. */
function serverOn(port: number, extra: readonly string[]): RedisServer {
  const located = locateRedisServer();
  if (!located.found) throw new Error(located.message);
  let child: ChildProcess | undefined;
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (child !== undefined && child.exitCode === null) return;
      child = spawn(
        located.path,
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...extra],
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

/**
 * Sends one RESP command to 127.0.0.1:port and resolves with the raw reply: a bulk string whole, any
 * other reply as its first chunk (enough for the short ones the tests read).
 */
export function rawCommand(port: number, args: readonly string[], timeoutMs = 2_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`redis-server on port ${port} did not answer ${args[0]} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    let reply = Buffer.alloc(0);
    socket.on('data', (data) => {
      reply = Buffer.concat([reply, data]);
      const bulk = /^\$(\d+)\r\n/.exec(reply.toString('latin1', 0, 32));
      if (bulk !== null && reply.length < bulk[0].length + Number(bulk[1]) + 2) return;
      clearTimeout(timer);
      socket.end();
      resolve(reply.toString());
    });
    const encoded = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
    socket.write(`*${args.length}\r\n${encoded}`);
  });
}
