/**
 * The same scenario (list, create, get, a 404, a 429 retried after Retry-After, an abort, the
 * rate-limit reading, the deprecation warning, a RequestValidationError with nothing sent) run from
 * the packed tarball on every server runtime: Node 22.12 and 24, Bun, and Deno both through
 * node_modules and through an `npm:` specifier.
 */
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { log } from '../package/support/log.js';
import { NODE_22_VERSION, node22 } from '../package/support/node22.js';
import { PINNED_NODE } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { expectScenarioReport } from './support/expected-report.js';
import { startLocalRegistry } from './support/local-registry.js';
import { FIXTURES, type RuntimeProject, runtimeProject } from './support/runtime-project.js';
import { locateRuntime } from './support/runtimes.js';

const bun = locateRuntime('Bun', 'the scenario on Bun');
const deno = locateRuntime('Deno', 'the scenario on Deno');

interface Run {
  readonly name: string;
  readonly runtime: RegExp;
  /** Where the package was loaded from. */
  readonly loaded: RegExp;
  readonly command: () => string;
  readonly args: readonly string[];
  /** Where it runs, when not in the installed project. */
  readonly directory?: () => string;
  readonly env?: () => NodeJS.ProcessEnv;
}

const FROM_NODE_MODULES = /^file:\/\/\/.*\/node_modules\/animal-store-sdk\/dist\/index\.js$/;

let project: RuntimeProject;
let oldestNode: string;
let npmSpecifierDirectory: string;
let registryUrl: string;
let closeRegistry: (() => Promise<void>) | undefined;

const RUNS: Run[] = [
  {
    name: 'Node 24',
    runtime: /^node 24\./,
    loaded: FROM_NODE_MODULES,
    command: () => PINNED_NODE,
    args: ['run-installed.js'],
  },
  {
    name: `Node ${NODE_22_VERSION}`,
    runtime: new RegExp(`^node ${NODE_22_VERSION.replaceAll('.', '\\.')}$`),
    loaded: FROM_NODE_MODULES,
    command: () => oldestNode,
    args: ['run-installed.js'],
  },
];
if (bun !== undefined) {
  RUNS.push({
    name: `Bun ${bun.version}`,
    runtime: /^bun /,
    loaded: FROM_NODE_MODULES,
    command: () => bun.path,
    args: ['run-installed.js'],
  });
}
if (deno !== undefined) {
  RUNS.push(
    {
      name: `Deno ${deno.version} through node_modules`,
      runtime: /^deno /,
      loaded: FROM_NODE_MODULES,
      command: () => deno.path,
      args: ['run', '--allow-all', '--node-modules-dir=manual', 'run-installed.js'],
    },
    {
      name: `Deno ${deno.version} through an npm: specifier`,
      runtime: /^deno /,
      // Deno's own cache of the registry's packages, not a node_modules directory.
      loaded: /\/deno-dir\/npm\/[^/]+\/animal-store-sdk\/\d+\.\d+\.\d+\/dist\/index\.js$/,
      command: () => deno.path,
      args: ['run', '--allow-all', '--node-modules-dir=none', 'run-npm-specifier.js'],
      directory: () => npmSpecifierDirectory,
      env: () => ({ NPM_CONFIG_REGISTRY: registryUrl, DENO_DIR: join(npmSpecifierDirectory, 'deno-dir') }),
    },
  );
}

beforeAll(async () => {
  [project, oldestNode] = await Promise.all([runtimeProject(), node22()]);
  if (deno !== undefined) {
    // A directory with no package.json or node_modules, and a Deno cache of its own.
    npmSpecifierDirectory = await mkdtemp(join(tmpdir(), 'animal-store-deno-npm-'));
    for (const script of ['scenario.js', 'run-npm-specifier.js']) {
      await copyFile(join(FIXTURES, script), join(npmSpecifierDirectory, script));
    }
    const registry = await startLocalRegistry(project.packed);
    registryUrl = registry.url;
    closeRegistry = registry.close;
  }
}, 180_000);

afterAll(async () => {
  await closeRegistry?.();
  if (npmSpecifierDirectory !== undefined) await rm(npmSpecifierDirectory, { recursive: true, force: true });
});

describe.concurrent('the scenario from the packed tarball', { timeout: 90_000 }, () => {
  it.for(RUNS)('runs on $name', async (runtime, { expect }) => {
    const { stdout, stderr } = await run(runtime.command(), runtime.args, {
      cwd: runtime.directory?.() ?? project.directory,
      node: PINNED_NODE,
      env: runtime.env?.(),
      timeoutMs: 85_000,
    });
    const report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Record<string, unknown>;
    log(`  ${runtime.name}: ${String(report.runtime)} loaded ${String(report.loaded)}`);

    expect(report.runtime).toMatch(runtime.runtime);
    expect(report.loaded).toMatch(runtime.loaded);
    expectScenarioReport(expect, report);
    expect(stderr).not.toMatch(/warn|error/i);
  });
});
