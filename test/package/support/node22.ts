/**
 * A Node 22 binary, the oldest release line the package supports, fetched once from the npm
 * registry's per-platform `node-<platform>-<arch>` package and cached in node_modules/.cache.
 *
 * It is unpacked by hand rather than installed: installing that package as a dependency would
 * replace the repository's pinned `node_modules/.bin/node`.
 *
 * @module
 */
import { access, constants, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { log } from './log.js';
import { PINNED_NODE, REPO_ROOT } from './repo.js';
import { run } from './run.js';

const CACHE = join(REPO_ROOT, 'node_modules', '.cache', 'node22');
const BINARY = join(CACHE, 'bin', 'node');

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The path of a Node 22 binary, downloaded and cached on first use. */
export async function node22(): Promise<string> {
  if (await isExecutable(BINARY)) {
    log(`Node 22: cached at ${BINARY}`);
    return BINARY;
  }
  const packageSpec = `node-${process.platform}-${process.arch}@22`;
  log(`Node 22: fetching ${packageSpec} from the npm registry`);
  await mkdir(join(CACHE, 'bin'), { recursive: true });
  // Unpacked next to the cache and moved in with one rename, so a concurrent run never sees half a file.
  const download = await mkdtemp(join(CACHE, 'download-'));
  try {
    const packed = await run('npm', ['pack', packageSpec, '--pack-destination', download, '--json'], {
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
  log(`Node 22: cached at ${BINARY}`);
  return BINARY;
}
