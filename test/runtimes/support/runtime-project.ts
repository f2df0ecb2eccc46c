/**
 * One application, outside the repository, with the packed tarball and msw installed from npm: every
 * runtime that reads node_modules (Node, Bun, Deno) runs the scenario there. It is installed once and
 * again only when the tarball changes, under a lock, so test files running at once share it.
 *
 * @module
 */
import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PackedPackage, readManifest } from '../../package/support/built-package.js';
import { installedProject } from '../../support/installed-project.js';

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

/** The project, installed from the current tarball. */
export async function runtimeProject(): Promise<RuntimeProject> {
  const manifest = await readManifest();
  return installedProject({
    name: 'animal-store-runtimes',
    packages: [`msw@${manifest.peerDependencies.msw}`],
    refresh: (directory) =>
      Promise.all(SCRIPTS.map((script) => copyFile(join(FIXTURES, script), join(directory, script)))).then(
        () => undefined,
      ),
  });
}
