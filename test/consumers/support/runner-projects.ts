/**
 * The consumer projects the test runners run in: one per msw release tested, each with the packed
 * tarball and that msw installed from npm, msw's worker script written by `npx msw init public`, and
 * the test files of test/consumers/fixtures. The runners themselves (vitest, Jest, jsdom, happy-dom)
 * are the repository's pinned dev dependencies, shared by every project through a `node_modules`
 * link in their parent directory, so only the package and msw are installed per project.
 *
 * @module
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PINNED_NODE } from '../../package/support/repo.js';
import { run } from '../../package/support/run.js';
import { installedProject } from '../../support/installed-project.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** A consumer project with one msw release installed. */
export interface RunnerProject {
  readonly directory: string;
  /** The msw version npm installed. */
  readonly msw: string;
}

/** The project for `mswSpec` (an npm version or range), installed from the current tarball. */
export async function runnerProject(mswSpec: string): Promise<RunnerProject> {
  const { directory } = await installedProject({
    name: 'animal-store-runners',
    subdirectory: `msw-${mswSpec.replace(/[^\w.]+/g, '_')}`,
    packages: [`msw@${mswSpec}`],
    toolsFromRepository: true,
    afterInstall: (cwd) =>
      run('npx', ['--no', 'msw', 'init', 'public', '--no-save'], { cwd, node: PINNED_NODE }).then(() => {}),
    refresh: (cwd) => cp(FIXTURES, cwd, { recursive: true }),
  });
  const manifest = await readFile(join(directory, 'node_modules', 'msw', 'package.json'), 'utf8');
  return { directory, msw: (JSON.parse(manifest) as { version: string }).version };
}
