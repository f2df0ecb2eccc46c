/**
 * Cloudflare's workerd serving one bundled worker on loopback, as `wrangler dev` would.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import * as esbuild from 'esbuild';

/** A running workerd. */
export interface RunningWorker {
  readonly url: string;
  /** What workerd printed so far. */
  output(): string;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 20_000;

/** How a Worker is configured: its compatibility date, and whether it has Node.js compatibility. */
export interface WorkerCompatibility {
  readonly date: string;
  readonly nodejsCompat: boolean;
}

/**
 * Bundles `entry` (in `project`) for workerd as Cloudflare's tools (wrangler) do with esbuild: the
 * `workerd`, `worker` and `browser` export conditions, one ES module; with `nodejs_compat`, Node's
 * built-in modules are left to the runtime, which provides them.
 */
export async function bundleWorker(
  project: string,
  entry: string,
  outfile: string,
  { nodejsCompat = false } = {},
): Promise<void> {
  await esbuild.build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    conditions: ['workerd', 'worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
    target: 'es2022',
    external: nodejsCompat ? ['node:*'] : [],
    outfile,
    logLevel: 'silent',
  });
}

/**
 * Writes a workerd config for `script` (in `directory`) and serves it on a port the system picks,
 * which workerd reports on its control descriptor once it listens.
 */
export async function serveWorker(
  workerd: string,
  directory: string,
  script: string,
  compatibility: WorkerCompatibility,
): Promise<RunningWorker> {
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "main")],
);

const worker :Workerd.Worker = (
  modules = [(name = "worker", esModule = embed "${script}")],
  compatibilityDate = "${compatibility.date}",
  compatibilityFlags = [${compatibility.nodejsCompat ? '"nodejs_compat"' : ''}],
);
`;
  const configFile = `workerd-${compatibility.date}${compatibility.nodejsCompat ? '-nodejs_compat' : ''}.capnp`;
  await writeFile(join(directory, configFile), config);
  const child = spawn(workerd, ['serve', configFile, '--verbose', '--control-fd', '3'], {
    cwd: directory,
    stdio: ['ignore', 'pipe', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };

  const control = child.stdio[3] as Readable;
  const listening = new Promise<number>((resolve, reject) => {
    createInterface({ input: control }).on('line', (line) => {
      const message = JSON.parse(line) as { event?: string; socket?: string; port?: number };
      if (message.event === 'listen' && message.socket === 'http' && message.port !== undefined) {
        resolve(message.port);
      }
    });
    child.once('exit', (code) => reject(new Error(`workerd exited with ${code}:\n${output}`)));
  });
  const timeout = setTimeout(() => {
    output += `\n(no port reported within ${START_TIMEOUT_MS} ms)`;
    child.kill('SIGKILL');
  }, START_TIMEOUT_MS);
  try {
    const port = await listening;
    return { url: `http://127.0.0.1:${port}/`, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timeout);
  }
}
