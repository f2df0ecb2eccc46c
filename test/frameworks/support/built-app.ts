/**
 * An app of test/frameworks/fixtures, installed once with the packed tarball (and the framework's
 * packages) in a project outside the repository, and built once for every test file that starts it:
 * a build is redone only when the tarball, the packages or the app's sources change.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { log } from '../../package/support/log.js';
import { PINNED_NODE } from '../../package/support/repo.js';
import { run } from '../../package/support/run.js';
import { type InstalledProject, installedProject } from '../../support/installed-project.js';
import { exclusively } from '../../support/package-build.js';

/** One build (or one install of a framework from the registry), with room on a busy 2-core machine. */
export const BUILD_TIMEOUT_MS = 360_000;

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(directory, entry.name)) : [join(directory, entry.name)],
  );
}

/** The folder of the app named `fixture`. */
export function fixtureDirectory(fixture: string): string {
  return fileURLToPath(new URL(`../fixtures/${fixture}/`, import.meta.url));
}

/**
 * The project of `fixture`, with the tarball and `packages` installed and the app's sources in;
 * `afterInstall` runs once, after the install.
 */
export function appProject(
  fixture: string,
  packages: readonly string[],
  afterInstall?: (directory: string) => Promise<void>,
): Promise<InstalledProject> {
  const sources = fixtureDirectory(fixture);
  return installedProject({
    name: `animal-store-${fixture}`,
    packages,
    installTimeoutMs: BUILD_TIMEOUT_MS,
    ...(afterInstall === undefined ? {} : { afterInstall }),
    // Writes only what changed, so a server already running from the project sees no churn.
    async refresh(directory) {
      for (const file of filesUnder(sources)) {
        const target = join(directory, relative(sources, file));
        const content = readFileSync(file);
        if ((await readFile(target).catch(() => undefined))?.equals(content) === true) continue;
        await mkdir(dirname(target), { recursive: true });
        await writeFile(target, content);
      }
    },
  });
}

/** How to build an app. */
export interface Build {
  /** The app's fixture. */
  readonly fixture: string;
  readonly project: InstalledProject;
  /** What the build writes, relative to the project: removed before building. */
  readonly output: string;
  /** The build's command line under the pinned Node, from the project's directory. */
  readonly args: readonly string[];
  readonly env?: NodeJS.ProcessEnv;
  /** Which of the app's files the build reads (paths relative to the fixture); all by default. */
  readonly reads?: (file: string) => boolean;
}

/** Builds the app unless a build of the same inputs is there, and returns what the build printed. */
export async function buildOnce(build: Build): Promise<string> {
  const { directory } = build.project;
  const inputs = createHash('sha256')
    .update(await readFile(join(directory, 'installed-from.txt')))
    .update(JSON.stringify([build.args, build.env]));
  const sources = fixtureDirectory(build.fixture);
  for (const file of filesUnder(sources).map((file) => relative(sources, file))) {
    if (build.reads?.(file) ?? true) inputs.update(file).update(readFileSync(join(sources, file)));
  }
  const builtFrom = inputs.digest('hex');
  const name = `${build.output.replace(/\W/g, '')}-of-${build.fixture}`;
  const marker = join(directory, `${name}.built-from.txt`);
  const report = join(directory, `${name}.log`);
  await exclusively(`animal-store-build-${name}`, async () => {
    if ((await readFile(marker, 'utf8').catch(() => '')) === builtFrom) return;
    await rm(marker, { force: true });
    await rm(join(directory, build.output), { recursive: true, force: true });
    const started = performance.now();
    const { stdout, stderr } = await run(PINNED_NODE, build.args, {
      cwd: directory,
      node: PINNED_NODE,
      env: { NO_COLOR: '1', FORCE_COLOR: '0', ...build.env },
      timeoutMs: BUILD_TIMEOUT_MS,
    });
    await writeFile(report, `${stdout}\n${stderr}`);
    await writeFile(marker, builtFrom);
    log(`${build.fixture}: ${build.output} built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  });
  return readFile(report, 'utf8');
}
