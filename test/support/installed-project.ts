/**
 * A project outside the repository with the packed tarball installed, as an application installs
 * it, its other packages resolved at the registry pin (registry-pin.ts): set up once, under a lock, and again only when the tarball changes, so that test files running
 * at once share it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type PackedPackage, sharedPackage } from '../package/support/built-package.js';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { exclusively } from './package-build.js';
import { pinnedNpm, REGISTRY_PIN } from './registry-pin.js';

/** What a project holds beside the tarball, and what is done in it. */
export interface ProjectSetup {
  /** Its directory's name in the system's temporary directory (made unique to this repository). */
  readonly name: string;
  /** A folder inside it, when the project is one of several sharing a parent. */
  readonly subdirectory?: string;
  /** Packages installed with the tarball, as npm specs (`msw@^3.0.5`). */
  readonly packages?: readonly string[];
  /**
   * Links the parent directory's `node_modules` to the repository's, so the project reaches the
   * repository's pinned tools (test runners) while the tarball and `packages` resolve from its own.
   */
  readonly toolsFromRepository?: boolean;
  /** Milliseconds the install may take (run's default when absent): a framework's packages are large. */
  readonly installTimeoutMs?: number;
  /** Runs in the project once it is installed (e.g. `npx msw init`). */
  readonly afterInstall?: (directory: string) => Promise<void>;
  /** Runs every time, under the lock (copying the test files in). */
  readonly refresh?: (directory: string) => Promise<void>;
}

/** An installed project and the tarball it installed. */
export interface InstalledProject {
  readonly directory: string;
  readonly packed: PackedPackage;
}

/** The project, installed from the current tarball. */
export async function installedProject(setup: ProjectSetup): Promise<InstalledProject> {
  const packed = await sharedPackage();
  // In the system's temporary directory, so that nothing resolves from the repository's node_modules
  // but what a link puts there.
  const root = join(
    tmpdir(),
    `${setup.name}-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
  );
  const directory = setup.subdirectory === undefined ? root : join(root, setup.subdirectory);
  const installedFrom = createHash('sha256')
    .update(await readFile(packed.tarball))
    .update(JSON.stringify(setup.packages ?? []))
    .update(REGISTRY_PIN)
    .digest('hex');
  const marker = join(directory, 'installed-from.txt');
  await exclusively(`${setup.name}-${setup.subdirectory ?? 'project'}`, async () => {
    if (setup.toolsFromRepository === true) {
      await mkdir(dirname(directory), { recursive: true });
      await symlink(join(REPO_ROOT, 'node_modules'), join(dirname(directory), 'node_modules'), 'dir').catch(
        (error: NodeJS.ErrnoException) => {
          if (error.code !== 'EEXIST') throw error;
        },
      );
    }
    if ((await readFile(marker, 'utf8').catch(() => '')) !== installedFrom) {
      await rm(directory, { recursive: true, force: true });
      await mkdir(directory, { recursive: true });
      await writeFile(
        join(directory, 'package.json'),
        `${JSON.stringify({ name: setup.subdirectory ?? setup.name, private: true, type: 'module' }, null, 2)}\n`,
      );
      await pinnedNpm(['install', packed.tarball, ...(setup.packages ?? [])], {
        cwd: directory,
        node: PINNED_NODE,
        ...(setup.installTimeoutMs === undefined ? {} : { timeoutMs: setup.installTimeoutMs }),
      });
      await setup.afterInstall?.(directory);
      await writeFile(marker, installedFrom);
      log(`${setup.name} installed in ${directory}`);
    }
    await setup.refresh?.(directory);
  });
  return { directory, packed };
}
