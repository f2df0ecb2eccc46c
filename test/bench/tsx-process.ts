/**
 * Starting a TypeScript script in a process of its own, with the repository's tsx and the Node that
 * runs the benchmark.
 *
 * @module
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { dirname } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

/** The repository's root directory, with a trailing slash. */
export const repoRoot: string = REPO_ROOT;

/**
 * Spawns `tsx [nodeFlags] script [args]`. tsx's launcher finds `node` on the PATH, so the directory of
 * the Node running the benchmark goes first: the child then runs on the same Node version.
 */
export function spawnTsx(
  script: string,
  args: readonly string[] = [],
  nodeFlags: readonly string[] = [],
): ChildProcessByStdio<Writable, Readable, null> {
  const path = `${dirname(process.execPath)}:${process.env.PATH ?? ''}`;
  return spawn(TSX, [...nodeFlags, script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, PATH: path },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}
