/**
 * Cloudflare's workerd serving one bundled worker on loopback, as `wrangler dev` would.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import * as esbuild from 'esbuild';

/** A running workerd. */
export interface RunningWorker {
  readonly url: string;
  /** What workerd printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const COMPATIBILITY_DATE = '2026-10-01';
const START_TIMEOUT_MS = 20_000;

/**
 * Bundles `entry` (in `project`) for workerd as Cloudflare's tools do: the `workerd`, `worker` and
 * `browser` export conditions, one ES module, nothing from Node.
 */
export async function bundleWorker(project: string, entry: string, outfile: string): Promise<void> {
  await esbuild.build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    outfile,
    logLevel: 'silent',
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject()));
    });
  });
}

/** Writes a workerd config for `script` (in `directory`) and serves it on a free loopback port. */
export async function serveWorker(
  workerd: string,
  directory: string,
  script: string,
): Promise<RunningWorker> {
  const port = await freePort();
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "${script}")],
  compatibilityDate = "${COMPATIBILITY_DATE}",
);
`;
  await writeFile(join(directory, 'workerd.capnp'), config);
  const child: ChildProcess = spawn(workerd, ['serve', 'workerd.capnp', '--verbose'], {
    cwd: directory,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/`;
  const running: RunningWorker = {
    url,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}:\n${output}`);
    // A connection accepted means workerd listens; the worker runs only for the real request.
    const listening = await new Promise<boolean>((resolve) => {
      const socket = createServer().listen(port, '127.0.0.1', () => {
        socket.close(() => resolve(false));
      });
      socket.once('error', () => resolve(true));
    });
    if (listening) return running;
    if (Date.now() > deadline) {
      await running.stop();
      throw new Error(`workerd did not listen on ${port} within ${START_TIMEOUT_MS} ms:\n${output}`);
    }
    await wait(100);
  }
}
