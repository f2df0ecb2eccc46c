/**
 * The projects of examples/testing, installed and run as a user runs them: each folder is a project of
 * its own (its runner's configuration, its test files, the packed tarball installed). The runners,
 * msw, React and the DOM environments are the repository's, through a `node_modules` link in the
 * projects' parent directory, so nothing is installed but the tarball.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { cp, mkdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PINNED_NODE, REPO_ROOT } from '../../package/support/repo.js';
import { installedProject } from '../../support/installed-project.js';

export const VITEST = join(REPO_ROOT, 'node_modules/vitest/vitest.mjs');
export const JEST = join(REPO_ROOT, 'node_modules/jest/bin/jest.js');
const RUN_TIMEOUT_MS = 150_000;

/** What a runner reported of one project. */
export interface Report {
  readonly passed: number;
  readonly failed: number;
  /** Files that failed outside a test (an error while collecting, a hook at the wrong place). */
  readonly failedFiles: number;
}

/** examples/testing/`name`, installed as a project of its own. */
export async function project(name: string): Promise<string> {
  const { directory } = await installedProject({
    name: 'animal-store-testing-examples',
    subdirectory: name,
    toolsFromRepository: true,
    refresh: async (cwd) => {
      await cp(join(REPO_ROOT, 'examples/testing', name), cwd, { recursive: true });
      // What `npx msw init public` writes, from the msw the project resolves.
      await mkdir(join(cwd, 'public'), { recursive: true });
      await cp(
        join(REPO_ROOT, 'node_modules/msw/lib/mockServiceWorker.js'),
        join(cwd, 'public/mockServiceWorker.js'),
      );
    },
  });
  return directory;
}

/** Runs `args` under the pinned Node in `cwd`; a failing run is a report to assert on, with its output. */
export async function run(
  cwd: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ stdout: string; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(PINNED_NODE, args, {
      cwd,
      env: { ...process.env, CI: '1', NO_COLOR: '1', ...env },
      timeout: RUN_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 16 * 1024 * 1024,
    });
    return { stdout, output: `${stdout}\n${stderr}` };
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return { stdout, output: `${stdout}\n${stderr}` };
  }
}

/** vitest run in `cwd` with the project's own configuration, read from its JSON report. */
export async function vitest(cwd: string, env: NodeJS.ProcessEnv = {}): Promise<Report & { output: string }> {
  const reportFile = join(cwd, 'vitest-report.json');
  const { output } = await run(cwd, [VITEST, 'run', '--reporter=json', `--outputFile=${reportFile}`], env);
  const report = JSON.parse(await readFile(reportFile, 'utf8').catch(() => '{}')) as {
    numPassedTests?: number;
    numFailedTests?: number;
    numFailedTestSuites?: number;
  };
  return {
    passed: report.numPassedTests ?? 0,
    failed: report.numFailedTests ?? 0,
    failedFiles: report.numFailedTestSuites ?? 0,
    output,
  };
}

/**
 * The fake servers running from `directory` (by their working directory, read from /proc: Linux), as
 * `pid args` lines: what a global setup that stopped the wrong process leaves behind.
 */
export async function serversStartedIn(directory: string): Promise<string[]> {
  const { stdout } = await promisify(execFile)('ps', ['-eo', 'pid=,args=']);
  const running: string[] = [];
  for (const line of stdout.split('\n')) {
    const [, pid, args] = /^\s*(\d+)\s+(.*)$/.exec(line) ?? [];
    if (pid === undefined || !/animal-store-fake-server|dist\/testing\/cli\.js/.test(args ?? '')) continue;
    const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => '');
    if (cwd === directory) running.push(line.trim());
  }
  return running;
}
