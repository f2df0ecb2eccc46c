/**
 * The package as npm publishes it: built from the current sources, then packed into a tarball.
 *
 * @module
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CACHE, ensurePackageBuilt, exclusively, newestChange } from '../../support/package-build.js';
import { log } from './log.js';
import { PINNED_NODE, REPO_ROOT } from './repo.js';
import { run } from './run.js';

/** The parts of package.json that say what a user's install loads. */
export interface Manifest {
  readonly name: string;
  readonly engines: { readonly node: string };
  readonly exports: Record<string, unknown>;
  readonly main: string;
  readonly module: string;
  readonly types: string;
  readonly bin: Record<string, string>;
  readonly peerDependencies: Record<string, string>;
  readonly devDependencies: Record<string, string>;
}

/** One file in the tarball, as `npm pack --json` lists it. */
export interface PackedFile {
  readonly path: string;
  readonly size: number;
  readonly mode: number;
}

/** A packed tarball and the files in it. */
export interface PackedPackage {
  readonly tarball: string;
  readonly files: readonly PackedFile[];
  readonly size: number;
  readonly unpackedSize: number;
}

/** The repository's package.json. */
export async function readManifest(): Promise<Manifest> {
  return JSON.parse(await readFile(join(REPO_ROOT, 'package.json'), 'utf8')) as Manifest;
}

function conditionTargets(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(conditionTargets);
}

/** Every file the manifest points a user at (exports, main, module, types, bin), without `./`. */
export function manifestTargets(manifest: Manifest): string[] {
  const targets = [
    ...conditionTargets(manifest.exports),
    manifest.main,
    manifest.module,
    manifest.types,
    ...Object.values(manifest.bin),
  ];
  return [...new Set(targets.map((target) => target.replace(/^\.\//, '')))];
}

/**
 * Packs the repository with `npm pack` into `destination`. `ignoreScripts` skips the `prepack` build,
 * for a caller that has just made sure dist/ is current.
 */
export async function pack(destination: string, { ignoreScripts = false } = {}): Promise<PackedPackage> {
  const { stdout } = await run(
    'npm',
    ['pack', '--json', '--pack-destination', destination, ...(ignoreScripts ? ['--ignore-scripts'] : [])],
    {
      cwd: REPO_ROOT,
      node: PINNED_NODE,
    },
  );
  // Lifecycle scripts (prepack, prepare) may print before the JSON report.
  const report = stdout.slice(stdout.search(/^\[$/m));
  const [packed] = JSON.parse(report) as [
    { filename: string; files: PackedFile[]; size: number; unpackedSize: number },
  ];
  log(`packed ${packed.filename}: ${packed.files.length} files, ${packed.size} bytes`);
  return {
    tarball: join(destination, packed.filename),
    files: packed.files,
    size: packed.size,
    unpackedSize: packed.unpackedSize,
  };
}

const SHARED_PACK = join(CACHE, 'animal-store-sdk-pack');
const SHARED_REPORT = join(SHARED_PACK, 'packed.json');
const PACKED_INPUTS = [
  'dist',
  'docs',
  'package.json',
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  'LICENSE',
];

function isPackCurrent(): boolean {
  if (!existsSync(SHARED_REPORT)) return false;
  const packedAt = newestChange(SHARED_REPORT);
  return PACKED_INPUTS.every(
    (input) => !existsSync(join(REPO_ROOT, input)) || newestChange(join(REPO_ROOT, input)) <= packedAt,
  );
}

/**
 * The tarball of the current sources, packed once for every test file that installs the package (in
 * node_modules/.cache) and packed again only when dist/ or a packed document changed.
 */
export async function sharedPackage(): Promise<PackedPackage> {
  await ensurePackageBuilt();
  return exclusively('animal-store-sdk-pack', async () => {
    if (!isPackCurrent()) {
      await rm(SHARED_PACK, { recursive: true, force: true });
      await mkdir(SHARED_PACK, { recursive: true });
      const packed = await pack(SHARED_PACK, { ignoreScripts: true });
      await writeFile(SHARED_REPORT, JSON.stringify(packed));
    }
    return JSON.parse(await readFile(SHARED_REPORT, 'utf8')) as PackedPackage;
  });
}
