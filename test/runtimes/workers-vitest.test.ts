/**
 * A consumer's Worker project whose tests run inside workerd under Cloudflare's Vitest integration
 * (`@cloudflare/vitest-plugin`, the successor of `@cloudflare/vitest-pool-workers`), with the SDK
 * and its fake store from the packed tarball and no msw installed, at the oldest compatibility date
 * of the runtime matrix, with and without `nodejs_compat`.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedPackage } from '../package/support/built-package.js';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { exclusively } from '../support/package-build.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/worker-project/', import.meta.url));
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
// The Vitest integration and vitest are the repository's pinned dev dependencies, reached through a
// node_modules link in the parent directory; the project installs only the tarball.
const PARENT = join(
  tmpdir(),
  `animal-store-worker-project-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`,
);
const PROJECT = join(PARENT, 'pets-worker');

const CONFIGURATIONS = [
  { date: '2024-09-23', nodejsCompat: false },
  { date: '2024-09-23', nodejsCompat: true },
] as const;

beforeAll(async () => {
  const packed = await sharedPackage();
  const installedFrom = createHash('sha256')
    .update(await readFile(packed.tarball))
    .digest('hex');
  const marker = join(PROJECT, 'installed-from.txt');
  await exclusively('animal-store-worker-project', async () => {
    await mkdir(PARENT, { recursive: true });
    await symlink(join(REPO_ROOT, 'node_modules'), join(PARENT, 'node_modules'), 'dir').catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      },
    );
    if ((await readFile(marker, 'utf8').catch(() => '')) !== installedFrom) {
      await rm(PROJECT, { recursive: true, force: true });
      await mkdir(PROJECT, { recursive: true });
      await writeFile(
        join(PROJECT, 'package.json'),
        `${JSON.stringify({ name: 'pets-worker', private: true, type: 'module' }, null, 2)}\n`,
      );
      await run('npm', ['install', packed.tarball, '--no-audit', '--no-fund', '--prefer-offline'], {
        cwd: PROJECT,
        node: PINNED_NODE,
      });
      await writeFile(marker, installedFrom);
    }
    await cp(FIXTURE, PROJECT, { recursive: true });
    for (const { date, nodejsCompat } of CONFIGURATIONS) {
      const config = {
        name: 'pets-worker',
        main: 'src/index.js',
        compatibility_date: date,
        compatibility_flags: nodejsCompat ? ['nodejs_compat'] : [],
      };
      await writeFile(join(PROJECT, configFile(date, nodejsCompat)), `${JSON.stringify(config, null, 2)}\n`);
    }
  });
}, 180_000);

function configFile(date: string, nodejsCompat: boolean): string {
  return `wrangler.${date}${nodejsCompat ? '.nodejs_compat' : ''}.jsonc`;
}

describe('a Worker project tested with @cloudflare/vitest-plugin', () => {
  it.for(CONFIGURATIONS)(
    'passes its tests against store.fetch at $date, nodejs_compat $nodejsCompat',
    { timeout: 120_000 },
    async ({ date, nodejsCompat }) => {
      const { stdout } = await run(PINNED_NODE, [VITEST, 'run'], {
        cwd: PROJECT,
        node: PINNED_NODE,
        env: { NO_COLOR: '1', FORCE_COLOR: '0', WRANGLER_CONFIG: `./${configFile(date, nodejsCompat)}` },
        timeoutMs: 110_000,
      });
      const summary = /^\s*Tests\s+(.*)$/m.exec(stdout)?.[1] ?? stdout;
      log(`  vitest-plugin at ${date}, nodejs_compat ${nodejsCompat}: ${summary}`);

      expect(summary).toMatch(/^3 passed \(3\)/);
    },
  );
});
