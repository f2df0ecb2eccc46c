/**
 * One application, outside the repository, with the packed tarball and msw installed from npm: every
 * runtime that reads node_modules (Node, Bun, Deno) runs the scenario there. It is installed once and
 * again only when the tarball changes, under a lock, so test files running at once share it.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PackedPackage, readManifest, sharedPackage } from '../../package/support/built-package.js';
import { log } from '../../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../../package/support/repo.js';
import { run } from '../../package/support/run.js';
import { exclusively } from '../../support/package-build.js';

/** The scripts the runtimes run, copied into the project. */
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));
const SCRIPTS = [
  'scenario.js',
  'run-installed.js',
  'run-npm-specifier.js',
  'store-page.js',
  'worker.js',
  'capture-console.js',
];

/** An installed application and the tarball it installed. */
export interface RuntimeProject {
  readonly directory: string;
  readonly packed: PackedPackage;
}

// In the system's temporary directory, so that nothing resolves from the repository's node_modules.
const DIRECTORY = join(
  tmpdir(),
  `animal-store-runtimes-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);

/** The project, installed from the current tarball. */
export async function runtimeProject(): Promise<RuntimeProject> {
  const packed = await sharedPackage();
  const tarball = await readFile(packed.tarball);
  const installedFrom = createHash('sha256').update(tarball).digest('hex');
  const marker = join(DIRECTORY, 'installed-from.txt');
  await exclusively('animal-store-runtime-project', async () => {
    const current = await readFile(marker, 'utf8').catch(() => '');
    if (current !== installedFrom) {
      await rm(DIRECTORY, { recursive: true, force: true });
      await mkdir(DIRECTORY, { recursive: true });
      await writeFile(
        join(DIRECTORY, 'package.json'),
        `${JSON.stringify({ name: 'animal-store-runtimes', private: true, type: 'module' }, null, 2)}\n`,
      );
      const manifest = await readManifest();
      await run(
        'npm',
        [
          'install',
          packed.tarball,
          `msw@${manifest.peerDependencies.msw}`,
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
        ],
        { cwd: DIRECTORY, node: PINNED_NODE },
      );
      await writeFile(marker, installedFrom);
      log(`runtime project installed in ${DIRECTORY}`);
    }
    await Promise.all(SCRIPTS.map((script) => copyFile(join(FIXTURES, script), join(DIRECTORY, script))));
  });
  return { directory: DIRECTORY, packed };
}
