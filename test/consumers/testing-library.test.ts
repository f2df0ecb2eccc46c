/**
 * React Testing Library on a runner's fake clock, from the packed tarball: a component lists pets, the
 * fake answers one 429 with `Retry-After: 2`, and `findByText` resolves in fake time, in well under
 * 2 real seconds, with `fakeTimeForTestingLibrary` configured. In vitest's jsdom and happy-dom
 * environments and its browser mode (Chromium, msw's service worker), and in Jest 30's ESM mode with
 * jest-fixed-jsdom. Each prints its wall time, logged here.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { CHROMIUM_ARGS, locateChromium } from '../support/chromium.js';
import { installedProject } from '../support/installed-project.js';

const FIXTURES = fileURLToPath(new URL('./testing-library/', import.meta.url));
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
const chromium = locateChromium();

let directory: string;

beforeAll(async () => {
  // React, Testing Library, the runners and the DOM environments are the repository's, through a
  // link in the parent directory; the tarball and msw are the project's own.
  ({ directory } = await installedProject({
    name: 'animal-store-testing-library',
    subdirectory: 'project',
    packages: ['msw@^3.0.5'],
    toolsFromRepository: true,
    afterInstall: (cwd) =>
      run('npx', ['--no', 'msw', 'init', 'public', '--no-save'], { cwd, node: PINNED_NODE }).then(() => {}),
    refresh: (cwd) => cp(FIXTURES, cwd, { recursive: true }),
  }));
}, 240_000);

function logWallTimes(output: string): void {
  for (const [line] of output.matchAll(/findByText .+: \d+ ms real, \d+ ms fake/g)) log(`  ${line}`);
}

describe('findByText on a fake clock', { timeout: 200_000 }, () => {
  it('passes in vitest: jsdom, happy-dom and browser mode', async () => {
    const { stdout, stderr } = await run(
      PINNED_NODE,
      [VITEST, 'run', ...(chromium.found ? [] : ['--project', 'jsdom', '--project', 'happy-dom'])],
      {
        cwd: directory,
        node: PINNED_NODE,
        env: {
          NO_COLOR: '1',
          FORCE_COLOR: '0',
          ...(chromium.found ? { CHROME_PATH: chromium.path, CHROME_ARGS: CHROMIUM_ARGS.join(' ') } : {}),
        },
        timeoutMs: 180_000,
      },
    );
    logWallTimes(stdout + stderr);
    const passed = Object.fromEntries(
      [...stdout.matchAll(/^ ✓ \|([\w-]+)(?: \(chromium\))?\| \S+ \((\d+) tests?\)/gm)].map(
        ([, name, tests]) => [name, Number(tests)],
      ),
    );

    expect(passed).toEqual({ jsdom: 2, 'happy-dom': 2, ...(chromium.found ? { browser: 1 } : {}) });
  });

  it('passes in Jest 30, ESM with jest-fixed-jsdom', async () => {
    const { stdout, stderr } = await run(
      PINNED_NODE,
      ['--experimental-vm-modules', JEST, '--config', 'jest/jest.config.mjs', '--json'],
      { cwd: directory, node: PINNED_NODE, env: { NO_COLOR: '1' }, timeoutMs: 180_000 },
    );
    logWallTimes(stderr);
    const report = JSON.parse(stdout) as { numPassedTests: number; numFailedTests: number };

    expect({ passed: report.numPassedTests, failed: report.numFailedTests }).toEqual({
      passed: 2,
      failed: 0,
    });
  });
});
