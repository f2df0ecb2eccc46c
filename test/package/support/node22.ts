/**
 * Node 22.12, the oldest release the package supports (`engines`), fetched once from the npm
 * registry's per-platform `node-<platform>-<arch>` package and cached in node_modules/.cache.
 *
 * It is unpacked by hand rather than installed: installing that package as a dependency would
 * replace the repository's pinned `node_modules/.bin/node`.
 *
 * @module
 */
import { access, constants, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { pinnedNpm } from '../../support/registry-pin.js';
import { log } from './log.js';
import { PINNED_NODE, REPO_ROOT } from './repo.js';
import { run } from './run.js';

/** The exact release tested: the floor of `engines.node`. */
export const NODE_22_VERSION = '22.12.0';

const CACHE = join(REPO_ROOT, 'node_modules', '.cache', `node-${NODE_22_VERSION}`);
const BINARY = join(CACHE, 'bin', 'node');

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of the Node 22.12 binary, downloaded from the npm registry and cached on first use. */
export async function node22(): Promise<string> {
  if (await isExecutable(BINARY)) {
    log(`Node ${NODE_22_VERSION}: cached at ${BINARY}`);
    return BINARY;
  }
  const packageSpec = `node-${process.platform}-${process.arch}@${NODE_22_VERSION}`;
  log(`Node ${NODE_22_VERSION}: fetching ${packageSpec} from the npm registry`);
  await mkdir(join(CACHE, 'bin'), { recursive: true });
  // Unpacked next to the cache and moved in with one rename, so a concurrent run never sees half a file.
  const download = await mkdtemp(join(CACHE, 'download-'));
  try {
    const packed = await pinnedNpm(['pack', packageSpec, '--pack-destination', download, '--json'], {
      cwd: download,
      node: PINNED_NODE,
    });
    const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
    await run('tar', ['-xzf', join(download, filename), '-C', download, 'package/bin/node'], {
      cwd: download,
      node: PINNED_NODE,
    });
    await rename(join(download, 'package', 'bin', 'node'), BINARY);
  } finally {
    await rm(download, { recursive: true, force: true });
  }
  log(`Node ${NODE_22_VERSION}: cached at ${BINARY}`);
  return BINARY;
}
