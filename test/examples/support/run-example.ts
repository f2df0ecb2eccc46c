/**
 * Running an example as a newcomer would, and reading its output.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { delimiter, dirname, join, resolve } from 'node:path';
import { expect } from 'vitest';
import { DEFAULT_API_KEY } from '../../../src/testing/store/fake-store.js';

const root = resolve(import.meta.dirname, '../../..');
const tsx = join(root, 'node_modules/.bin/tsx');
/** Each example takes a second or two; the margin is for a machine busy with other test files. */
export const RUN_TIMEOUT_MS = 30_000;

/** How an example run ended. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `examples/<file>` as a newcomer would, with PETSTORE_* and REDIS_URL unset unless `env` sets
 * them, under the Node that runs the tests.
 */
export function runExample(
  file: string,
  args: string[] = [],
  env: Record<string, string> = {},
): Promise<Run> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_') && name !== 'REDIS_URL'),
  );
  const PATH = [dirname(process.execPath), process.env.PATH].join(delimiter);
  return new Promise((done, fail) => {
    const child = execFile(
      tsx,
      [join('examples', file), ...args],
      { cwd: root, env: { ...inherited, PATH, ...env }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        // A non-zero exit or a kill after the timeout is a result to assert on; a failed spawn is not.
        if (typeof error?.code === 'string') fail(error);
        else done({ code: child.exitCode, stdout, stderr });
      },
    );
  });
}

/** Every line of output, and that no API key or bearer token is among them. */
export function outputOf(result: Run, keys: string[] = [DEFAULT_API_KEY]): string {
  const output = `${result.stdout}\n${result.stderr}`;
  for (const key of keys) expect(output).not.toContain(key);
  expect(output).not.toMatch(/bearer/i);
  return output;
}
