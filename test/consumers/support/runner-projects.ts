/**
 * The consumer projects the test runners run in: one per msw release tested, each with the packed
 * tarball and that msw installed from npm, msw's worker script written by `npx msw init public`, and
 * the test files of test/consumers/fixtures. The runners themselves (vitest, Jest, jsdom, happy-dom)
 * are the repository's pinned dev dependencies, shared by every project through a `node_modules`
 * link in their parent directory, so only the package and msw are installed per project. A project
 * is installed again only when the tarball changes, under a lock, like the runtime project.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedPackage } from '../../package/support/built-package.js';
import { log } from '../../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../../package/support/repo.js';
import { run } from '../../package/support/run.js';
import { exclusively } from '../../support/package-build.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

// In the system's temporary directory, so that the package and msw resolve only from each project.
const PARENT = join(
  tmpdir(),
  `animal-store-runners-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);

/** A consumer project with one msw release installed. */
export interface RunnerProject {
  readonly directory: string;
  /** The msw version npm installed. */
  readonly msw: string;
}

/** The project for `mswSpec` (an npm version or range), installed from the current tarball. */
export async function runnerProject(mswSpec: string): Promise<RunnerProject> {
  const packed = await sharedPackage();
  const installedFrom = createHash('sha256')
    .update(await readFile(packed.tarball))
    .update(mswSpec)
    .digest('hex');
  const directory = join(PARENT, `msw-${mswSpec.replace(/[^\w.]+/g, '_')}`);
  const marker = join(directory, 'installed-from.txt');
  await exclusively(`animal-store-runners-${mswSpec.replace(/[^\w.]+/g, '_')}`, async () => {
    await mkdir(PARENT, { recursive: true });
    await symlink(join(REPO_ROOT, 'node_modules'), join(PARENT, 'node_modules'), 'dir').catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    const current = await readFile(marker, 'utf8').catch(() => '');
    if (current !== installedFrom) {
      await rm(directory, { recursive: true, force: true });
      await mkdir(directory, { recursive: true });
      await writeFile(
        join(directory, 'package.json'),
        `${JSON.stringify({ name: 'animal-store-runner-consumer', private: true, type: 'module' }, null, 2)}\n`,
      );
      const options = { cwd: directory, node: PINNED_NODE };
      await run(
        'npm',
        ['install', packed.tarball, `msw@${mswSpec}`, '--no-audit', '--no-fund', '--prefer-offline'],
        options,
      );
      await run('npx', ['msw', 'init', 'public', '--no-save'], options);
      await writeFile(marker, installedFrom);
      log(`runner project for msw@${mswSpec} installed in ${directory}`);
    }
    await cp(FIXTURES, directory, { recursive: true });
  });
  const { version } = JSON.parse(
    await readFile(join(directory, 'node_modules', 'msw', 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return { directory, msw: version };
}
