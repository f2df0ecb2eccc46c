/**
 * The same fake-backed tests (test/consumers/fixtures/fake-store-tests.cjs) in every test runner
 * consumers use, from the packed tarball, with the lowest msw 2, the latest msw 2 and msw 3: vitest in
 * the node, jsdom and happy-dom environments and in Chromium (msw's service worker, written by
 * `npx msw init`), Jest 30 in its default CommonJS setup, in that setup with require(esm)
 * (--experimental-vm-modules), and in ESM mode with jsdom (jest-fixed-jsdom), Node's test runner,
 * and Bun's. Each runner is run as a consumer runs it, and must report every test passed.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { locateRuntime } from '../runtimes/support/runtimes.js';
import { CHROMIUM_ARGS, locateChromium } from '../support/chromium.js';
import { type RunnerProject, runnerProject } from './support/runner-projects.js';

const bun = locateRuntime('Bun', 'the consumer tests under bun test');
const chromium = locateChromium();
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const JEST = join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js');

/** The msw releases tested: the floor of the peer range, the latest msw 2, and msw 3. */
const MSW_RELEASES = ['2.0.0', '^2', '^3.0.5'] as const;

/** What one runner reported: tests passed and failed, by the mode (environment) it ran them in. */
type Counts = Record<string, { passed: number; failed: number }>;

interface Runner {
  readonly name: string;
  readonly command: (project: RunnerProject) => { command: string; args: string[]; env?: NodeJS.ProcessEnv };
  readonly counts: (stdout: string, stderr: string) => Counts;
  /** The tests each mode must pass with this msw release. */
  readonly expected: (msw: string) => Record<string, number>;
}

function count(output: string, pattern: RegExp): number {
  return Number(pattern.exec(output)?.[1] ?? 0);
}

/** Jest's `--json` report: its stdout (the tests' console goes to stderr). */
function jestCounts(stdout: string): Counts {
  const report = JSON.parse(stdout) as {
    numPassedTests: number;
    numFailedTests: number;
  };
  return { all: { passed: report.numPassedTests, failed: report.numFailedTests } };
}

// The shared tests: 3 through store.fetch, 3 with msw's setupServer (2 through its handlers, 1 beside
// store.listen()), 1 through store.listen().
const SHARED = 7;
const WITHOUT_MSW = SHARED - 3;

const RUNNERS: Runner[] = [
  {
    name: 'vitest',
    command: () => ({
      command: PINNED_NODE,
      args: [
        VITEST,
        'run',
        ...(chromium.found ? [] : ['--project', 'node', '--project', 'jsdom', '--project', 'happy-dom']),
      ],
      env: chromium.found ? { CHROME_PATH: chromium.path, CHROME_ARGS: CHROMIUM_ARGS.join(' ') } : {},
    }),
    counts: (stdout) => {
      const counts: Counts = {};
      for (const [, project, tests, failed] of stdout.matchAll(
        /^ [✓❯×] \|([\w-]+)(?: \(chromium\))?\| \S+ \((\d+) tests?(?: \| (\d+) failed)?\)/gm,
      )) {
        counts[project as string] = {
          passed: Number(tests) - Number(failed ?? 0),
          failed: Number(failed ?? 0),
        };
      }
      return counts;
    },
    expected: () => ({
      node: SHARED,
      jsdom: SHARED,
      'happy-dom': SHARED,
      ...(chromium.found ? { browser: 3 } : {}),
    }),
  },
  {
    name: 'Jest, CommonJS',
    command: () => ({ command: PINNED_NODE, args: [JEST, '--config', 'jest-cjs/jest.config.cjs', '--json'] }),
    counts: jestCounts,
    // msw 2.0 is CommonJS throughout; later releases need require(esm), which this setup lacks.
    expected: (msw) => ({ all: 2 + (msw.startsWith('2.0.') ? SHARED : WITHOUT_MSW) }),
  },
  {
    name: 'Jest, CommonJS with require(esm)',
    command: () => ({
      command: PINNED_NODE,
      args: ['--experimental-vm-modules', JEST, '--config', 'jest-cjs/jest.config.cjs', '--json'],
    }),
    counts: jestCounts,
    expected: () => ({ all: 2 + SHARED }),
  },
  {
    name: 'Jest, ESM with jest-fixed-jsdom',
    command: () => ({
      command: PINNED_NODE,
      args: ['--experimental-vm-modules', JEST, '--config', 'jest-esm/jest.config.mjs', '--json'],
    }),
    counts: jestCounts,
    expected: () => ({ all: SHARED }),
  },
  {
    name: 'node --test',
    command: () => ({ command: PINNED_NODE, args: ['--test', 'node-test/pets.test.mjs'] }),
    counts: (output) => ({
      all: { passed: count(output, /^ℹ pass (\d+)$/m), failed: count(output, /^ℹ fail (\d+)$/m) },
    }),
    expected: () => ({ all: SHARED }),
  },
  ...(bun === undefined
    ? []
    : [
        {
          name: `bun test (${bun.version})`,
          command: () => ({ command: bun.path, args: ['test', './bun/pets.test.js'] }),
          // Bun writes its report to stderr.
          counts: (_stdout: string, stderr: string) => ({
            all: { passed: count(stderr, /^ *(\d+) pass$/m), failed: count(stderr, /^ *(\d+) fail$/m) },
          }),
          // msw 3 intercepts through node:net, which Bun's fetch bypasses: its tests are not defined there.
          expected: (msw: string) => ({ all: msw.startsWith('2.') ? SHARED : WITHOUT_MSW }),
        },
      ]),
];

describe.each(MSW_RELEASES)('with msw@%s', { timeout: 240_000 }, (mswSpec) => {
  let project: RunnerProject;
  beforeAll(async () => {
    project = await runnerProject(mswSpec);
    log(`  msw@${mswSpec} is ${project.msw}`);
  }, 240_000);

  // One runner at a time: each starts its own workers, and the machine has two cores.
  it.for(RUNNERS)('$name runs the tests and passes them all', async (runner) => {
    const { command, args, env } = runner.command(project);
    let result: { stdout: string; stderr: string };
    try {
      result = await run(command, args, {
        cwd: project.directory,
        node: PINNED_NODE,
        env: { NO_COLOR: '1', FORCE_COLOR: '0', ...env },
        timeoutMs: 200_000,
      });
    } catch (error) {
      throw new Error(`${runner.name} with msw ${project.msw} failed:\n${(error as Error).message}`);
    }
    const counts = runner.counts(result.stdout, result.stderr);
    for (const [mode, { passed, failed }] of Object.entries(counts)) {
      log(`  msw ${project.msw} | ${runner.name} | ${mode}: ${passed} passed, ${failed} failed`);
    }
    const expected = Object.fromEntries(
      Object.entries(runner.expected(project.msw)).map(([mode, passed]) => [mode, { passed, failed: 0 }]),
    );

    expect(counts).toEqual(expected);
  });
});
