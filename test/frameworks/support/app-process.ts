/**
 * Servers a framework test starts: the fake's command from the installed tarball, and an app's own
 * server. Each listens on a free loopback port it picks itself, prints where, and is killed (its whole
 * process group) when the test file ends.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { PINNED_NODE } from '../../package/support/repo.js';
import { envWithNode } from '../../package/support/run.js';

/** Long enough for a server to start on a busy 2-core machine. */
const START_TIMEOUT_MS = 60_000;

/** A running server and everything it wrote. */
export interface Server {
  readonly child: ChildProcess;
  /** stdout and stderr, interleaved as they arrived. */
  output(): string;
  /** Kills the server and everything it started. */
  stop(): Promise<void>;
}

/** Starts `args` under the pinned Node in `cwd`, in a process group of its own. */
export function startServer(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv = {}): Server {
  const child = spawn(PINNED_NODE, args, {
    cwd,
    env: { ...envWithNode(PINNED_NODE), NO_COLOR: '1', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const append = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
      await exited;
    },
  };
}

/** Waits for the server to print a line `pattern` matches, and returns its first group. */
export async function printed(server: Server, pattern: RegExp): Promise<string> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const match = pattern.exec(server.output());
    if (match?.[1] !== undefined) return match[1];
    if (Date.now() > deadline || server.child.exitCode !== null) {
      throw new Error(`The server did not print ${pattern}. It wrote:\n${server.output()}`);
    }
    await wait(50);
  }
}

/**
 * The fake's HTTP server, started with the packed package's command (three sample pets, and `args`),
 * and its origin.
 */
export async function startFakeServer(
  project: string,
  args: readonly string[] = [],
): Promise<{ server: Server; origin: string }> {
  const cli = join(project, 'node_modules', 'animal-store-sdk', 'dist', 'testing', 'cli.js');
  const server = startServer([cli, '--port', '0', '--seed', '3', ...args], project);
  const baseUrl = await printed(server, /listening on (\S+)/);
  return { server, origin: new URL(baseUrl).origin };
}

/**
 * A port free at this moment, for a server that prints the port it was given rather than the one it
 * got (adapter-node's, react-router-serve, Nitro's).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}
