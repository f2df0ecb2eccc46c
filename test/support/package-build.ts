/**
 * The package as `npm run build` makes it: the bundle checks use dist/, reached through the
 * package's `exports`, as an application would.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as wait } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The package's root directory. */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const BUILT_ENTRY = join(PACKAGE_ROOT, 'dist', 'index.js');
/** Everything `npm run build` reads. */
export const BUILD_INPUTS = ['src', 'package.json', 'tsup.config.ts', 'tsconfig.json'];
/** Where test helpers keep what they build once for every test file: dist's lock, the tarball, ... */
export const CACHE = join(PACKAGE_ROOT, 'node_modules', '.cache');
const STALE_LOCK_MS = 120_000;

/** The latest modification time of `path` or of anything under it. */
export function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(path).reduce(
    (newest, name) => Math.max(newest, newestChange(join(path, name))),
    stats.mtimeMs,
  );
}

function isBuildCurrent(): boolean {
  let built: number;
  try {
    built = statSync(BUILT_ENTRY).mtimeMs;
  } catch {
    return false;
  }
  return BUILD_INPUTS.every((input) => newestChange(join(PACKAGE_ROOT, input)) <= built);
}

/**
 * Holds the lock directory `name` in the cache while `action` runs, so that test files building the
 * same thing at once take turns.
 */
export async function exclusively<T>(name: string, action: () => Promise<T>): Promise<T> {
  const lock = join(CACHE, `${name}.lock`);
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A lock left behind by a run that was killed would otherwise block every later run.
      const lockedAt = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
      if (lockedAt !== undefined && Date.now() - lockedAt > STALE_LOCK_MS) {
        rmSync(lock, { recursive: true, force: true });
      }
      await wait(100);
    }
  }
  // An action may outlast the staleness limit (a framework's install or build on a busy machine): the
  // holder keeps the lock fresh, so that only a lock whose holder died goes stale.
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(lock, now, now);
    } catch {
      // Removed by a waiter that judged it stale: nothing to refresh.
    }
  }, STALE_LOCK_MS / 4);
  try {
    return await action();
  } finally {
    clearInterval(heartbeat);
    rmSync(lock, { recursive: true, force: true });
  }
}

async function buildUnless(isGoodEnough: () => boolean): Promise<void> {
  if (isGoodEnough()) return;
  await exclusively('animal-store-sdk-build', async () => {
    if (isGoodEnough()) return;
    await promisify(execFile)('npm', ['run', 'build'], { cwd: PACKAGE_ROOT });
  });
}

/**
 * Runs `npm run build` unless dist/ is newer than every source of the build.
 *
 * @throws Error with the build's output when the build fails.
 */
export function ensurePackageBuilt(): Promise<void> {
  return buildUnless(isBuildCurrent);
}

/**
 * Runs `npm run build` when dist/ is missing, as in a fresh clone, so that the test files that
 * use it do not all start the same build at once.
 */
export function buildPackageIfMissing(): Promise<void> {
  return buildUnless(() => existsSync(BUILT_ENTRY));
}
