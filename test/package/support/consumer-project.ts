/**
 * A fresh application outside the repository with the packed tarball installed, as a user would.
 *
 * @module
 */
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Manifest } from './built-package.js';
import { PINNED_NODE } from './repo.js';
import { run } from './run.js';
import { writeTypedConsumer } from './type-check.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The consumer scripts, by how they load the package. */
export const CONSUMER_SCRIPTS = { esm: 'esm-consumer.mjs', cjs: 'cjs-consumer.cjs' } as const;

/** The optional peers a consumer project installs beside the tarball. */
const OPTIONAL_PEERS = ['msw', 'redis', 'ioredis'] as const;

/**
 * Creates a project in the system's temporary directory and installs the tarball there together
 * with its optional peers (msw, redis, ioredis; `peers` to pick fewer), in the version ranges the
 * package asks for. The caller removes the directory.
 */
export async function createConsumerProject(
  tarball: string,
  manifest: Manifest,
  peers: readonly (typeof OPTIONAL_PEERS)[number][] = OPTIONAL_PEERS,
): Promise<string> {
  const project = await mkdtemp(join(tmpdir(), 'animal-store-consumer-'));
  await writeFile(
    join(project, 'package.json'),
    `${JSON.stringify({ name: 'animal-store-consumer', private: true, type: 'module' }, null, 2)}\n`,
  );
  for (const file of [...Object.values(CONSUMER_SCRIPTS), 'scenario.mjs', 'lazy-msw.mjs']) {
    await copyFile(join(FIXTURES, file), join(project, file));
  }
  await writeTypedConsumer(project);
  // The optional peers, in the ranges the package asks for: msw for ./testing, a Redis client of each
  // kind for ./redis.
  const specs = peers.map((name) => `${name}@${manifest.peerDependencies[name]}`);
  await run('npm', ['install', tarball, ...specs, '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: project,
    node: PINNED_NODE,
  });
  return project;
}
