/**
 * Runs the `animal-store-fake-server` command a project installed, the way `npx` does: through
 * the link npm put in node_modules/.bin, so its `#!/usr/bin/env node` line picks the Node to run.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { log } from './log.js';
import { envWithNode } from './run.js';

/** A running command. */
export interface RunningCommand {
  /** The base URL it printed. */
  readonly url: string;
  /** Everything it has written to stdout so far. */
  stdout(): string;
  /** Sends SIGTERM and resolves with the exit code once it exits. */
  terminate(): Promise<number | null>;
  /** Kills it if it still runs. */
  kill(): void;
}

const URL_TIMEOUT_MS = 15_000;

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

/** Starts the installed command on a free port and resolves once it prints its base URL. */
export function startInstalledFakeServer(project: string, node: string): Promise<RunningCommand> {
  const command = join(project, 'node_modules', '.bin', 'animal-store-fake-server');
  const args = ['--port', '0', '--seed', '2'];
  log(`$ ${command} ${args.join(' ')}  (node ${node})`);
  const child = spawn(command, args, {
    cwd: project,
    env: envWithNode(node),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const running: Omit<RunningCommand, 'url'> = {
    stdout: () => stdout,
    terminate: () => {
      child.kill('SIGTERM');
      return exited;
    },
    kill: () => {
      if (isRunning(child)) child.kill('SIGKILL');
    },
  };

  return new Promise((resolve, reject) => {
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      child.off('exit', onEarlyExit);
      child.stdout.off('data', onOutput);
      outcome();
    };
    const fail = (reason: string) =>
      settle(() => {
        running.kill();
        reject(new Error(`${reason}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`));
      });
    const onEarlyExit = (code: number | null, signal: NodeJS.Signals | null) =>
      fail(`Exited before printing its URL, with ${code ?? signal}`);
    const onOutput = () => {
      const url = /listening on (\S+)/.exec(stdout)?.[1];
      if (url === undefined) return;
      log(`  animal-store-fake-server listening on ${url}`);
      settle(() => resolve({ ...running, url }));
    };
    const timer = setTimeout(() => fail(`No URL printed within ${URL_TIMEOUT_MS} ms`), URL_TIMEOUT_MS);
    child.once('error', (error) => fail(`Could not start ${command}: ${error.message}`));
    child.on('exit', onEarlyExit);
    child.stdout.on('data', onOutput);
  });
}
