/**
 * A fresh application outside the repository with the packed tarball installed, as a user would.
 *
 * @module
 */
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pinnedNpm } from '../../support/registry-pin.js';
import type { Manifest } from './built-package.js';
import { PINNED_NODE } from './repo.js';
import { writeTypedConsumer } from './type-check.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** The consumer scripts, by how they load the package. */
export const CONSUMER_SCRIPTS = { esm: 'esm-consumer.mjs', cjs: 'cjs-consumer.cjs' } as const;

/** The application that traces its calls with OpenTelemetry. */
export const OTEL_CONSUMER = 'otel-consumer.mjs';

/**
 * OpenTelemetry as an application installs it: the two optional peers and the SDK packages that
 * record spans in memory, with undici's instrumentation beside ours. The versions are the
 * repository's, a set whose peer ranges agree (the trace SDK 2.x wants the API below 1.10).
 */
const OPENTELEMETRY = [
  '@opentelemetry/api',
  '@opentelemetry/instrumentation',
  '@opentelemetry/sdk-trace-base',
  '@opentelemetry/context-async-hooks',
  '@opentelemetry/instrumentation-undici',
];

/** The optional peers a consumer project installs beside the tarball. */
const OPTIONAL_PEERS = ['msw', 'redis', 'ioredis', 'ajv'] as const;

/**
 * Creates a project in the system's temporary directory and installs the tarball there together
 * with its optional peers (msw, redis, ioredis in the version ranges the package asks for; `peers`
 * to pick fewer; OpenTelemetry as {@link OPENTELEMETRY} says). The caller removes the directory.
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
  for (const file of [...Object.values(CONSUMER_SCRIPTS), 'scenario.mjs', 'lazy-msw.mjs', OTEL_CONSUMER]) {
    await copyFile(join(FIXTURES, file), join(project, file));
  }
  await writeTypedConsumer(project);
  // The optional peers, in the ranges the package asks for: msw for ./testing, a Redis client of each
  // kind for ./redis, ajv for checkContract.
  const specs = peers.map((name) => `${name}@${manifest.peerDependencies[name]}`);
  const openTelemetry = OPENTELEMETRY.map((name) => `${name}@${manifest.devDependencies[name]}`);
  const packages = [tarball, ...specs, ...openTelemetry];
  await pinnedNpm(['install', ...packages], { cwd: project, node: PINNED_NODE });
  return project;
}
