/**
 * Runs a command to completion, printing what runs and failing with everything it wrote.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { delimiter, dirname } from 'node:path';
import { whyUnpinned } from '../../support/install-rule.js';
import { log } from './log.js';

const DEFAULT_TIMEOUT_MS = 100_000;

/** What a finished command wrote. */
export interface RunOutput {
  readonly stdout: string;
  readonly stderr: string;
}

/** Where a command runs, and under which Node. */
export interface RunOptions {
  readonly cwd: string;
  /** The Node binary that `node` on the PATH (and so every `#!/usr/bin/env node` script) resolves to. */
  readonly node: string;
  /** Milliseconds before the command is killed. Default: 100,000, within the setup's time limit. */
  readonly timeoutMs?: number;
  /** Variables to set on top of the environment. */
  readonly env?: NodeJS.ProcessEnv | undefined;
}

/** The environment with `node` resolving to the given binary first. */
export function envWithNode(node: string): NodeJS.ProcessEnv {
  return { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
}

/**
 * Runs `command` and resolves with its output; rejects, with the command, its exit code and its
 * output, when it exits with any code but 0, and before it starts when it could install a version the
 * registry pin does not hold (install-rule.ts).
 */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<RunOutput> {
  const line = [command, ...args].join(' ');
  const unpinned = whyUnpinned(command, args);
  if (unpinned !== undefined) return Promise.reject(new Error(`\`${line}\` not run: ${unpinned}`));
  log(`$ ${line}  (in ${options.cwd})`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: { ...envWithNode(options.node), ...options.env },
        maxBuffer: 64 * 1024 * 1024,
        timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        killSignal: 'SIGKILL',
      },
      (error, stdout, stderr) => {
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        if (error === null) {
          log(`  done in ${seconds} s: ${line}`);
          resolve({ stdout, stderr });
          return;
        }
        const status = error.code ?? error.signal ?? error.message;
        reject(
          new Error(
            `\`${line}\` failed (${String(status)}) after ${seconds} s in ${options.cwd}\n` +
              `--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`,
          ),
        );
      },
    );
  });
}
