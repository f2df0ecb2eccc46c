/**
 * The `animal-store-fake-server` command as it ships (dist/testing/cli.js), started by plain Node for
 * a test and killed when the test finishes: starting it from src through tsx costs seconds on a busy
 * machine, more than the windows these tests wait for.
 *
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestContext } from 'vitest';

/** The built command. */
export const CLI = fileURLToPath(new URL('../../dist/testing/cli.js', import.meta.url));

/** Long enough for a process to start and serve a few windows on a busy 2-core machine. */
export const PROCESS_TEST_TIMEOUT_MS = 30_000;

/** A running command. */
export interface Run {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The exit code, once the process ends. */
  readonly exited: Promise<number | null>;
}

/**
 * Starts the command; it is killed when `onTestFinished` fires (the test's, or a file's own hook), if
 * still running.
 */
export function run(
  args: readonly string[],
  { onTestFinished }: Pick<TestContext, 'onTestFinished'>,
  env: NodeJS.ProcessEnv = process.env,
): Run {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** The base URL the command prints once it listens. */
export async function waitForUrl(cli: Run): Promise<string> {
  const deadline = Date.now() + PROCESS_TEST_TIMEOUT_MS / 2;
  for (;;) {
    const match = /listening on (\S+)/.exec(cli.stdout());
    if (match?.[1] !== undefined) return match[1];
    if (Date.now() > deadline || cli.child.exitCode !== null) {
      throw new Error(`No URL printed. stdout: ${cli.stdout()} stderr: ${cli.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
