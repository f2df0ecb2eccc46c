/**
 * Parallel test workers on one fake server, each on its own session: a consumer's vitest suite (in
 * fixtures/parallel-sessions) whose four files run at once against the command.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it, onTestFinished } from 'vitest';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../support/package-build.js';

const VITEST = join(PACKAGE_ROOT, 'node_modules/vitest/vitest.mjs');
const CONFIG = join(import.meta.dirname, 'fixtures/parallel-sessions/vitest.config.ts');

it('runs four test files at once, each on its own session, none seeing another’s state', async () => {
  await ensurePackageBuilt();
  const barrier = mkdtempSync(join(tmpdir(), 'parallel-sessions-'));
  onTestFinished(() => rmSync(barrier, { recursive: true, force: true }));

  const { stdout } = await promisify(execFile)(
    process.execPath,
    [VITEST, 'run', '--config', CONFIG, '--reporter', 'verbose'],
    {
      cwd: PACKAGE_ROOT,
      env: { ...process.env, PARALLEL_SESSIONS_BARRIER: barrier, CI: '', NO_COLOR: '1', FORCE_COLOR: '0' },
    },
  ).catch((error: { stdout?: string; stderr?: string }) => {
    throw new Error(`The suite failed:\n${error.stdout}\n${error.stderr}`);
  });

  expect(stdout).toMatch(/Test Files {2}4 passed \(4\)/);
  expect(stdout).toMatch(/Tests {2}4 passed \(4\)/);
  const workers = readdirSync(barrier).map((file) => readFileSync(join(barrier, file), 'utf8'));
  expect(workers).toHaveLength(4);
  expect(new Set(workers).size).toBe(4);
}, 120_000);
