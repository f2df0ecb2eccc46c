/**
 * A consumer's Worker project whose tests run inside workerd under Cloudflare's Vitest integration
 * (`@cloudflare/vitest-plugin`, the successor of `@cloudflare/vitest-pool-workers`), with the SDK
 * and its fake store from the packed tarball and no msw installed, at the oldest compatibility date
 * of the runtime matrix, with and without `nodejs_compat`.
 */
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { installedProject } from '../support/installed-project.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/worker-project/', import.meta.url));
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');

const CONFIGURATIONS = [
  { date: '2024-09-23', nodejsCompat: false },
  { date: '2024-09-23', nodejsCompat: true },
] as const;

let project: string;

beforeAll(async () => {
  // The Vitest integration and vitest are the repository's pinned dev dependencies; the project
  // installs only the tarball.
  ({ directory: project } = await installedProject({
    name: 'animal-store-worker-project',
    subdirectory: 'pets-worker',
    toolsFromRepository: true,
    refresh: async (directory) => {
      await cp(FIXTURE, directory, { recursive: true });
      for (const { date, nodejsCompat } of CONFIGURATIONS) {
        const config = {
          name: 'pets-worker',
          main: 'src/index.js',
          compatibility_date: date,
          compatibility_flags: nodejsCompat ? ['nodejs_compat'] : [],
        };
        await writeFile(
          join(directory, configFile(date, nodejsCompat)),
          `${JSON.stringify(config, null, 2)}\n`,
        );
      }
    },
  }));
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
        cwd: project,
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
