/**
 * An application without msw, from the packed tarball: esbuild, Vite and webpack build its page,
 * which uses the testing entry's store.fetch, control methods and samplePets, and the page runs in
 * Chromium; the declarations type-check with skipLibCheck: false for ES module and CommonJS files.
 */
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { log } from '../package/support/log.js';
import { PINNED_NODE, TSC } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { STRICT_APPLICATION_OPTIONS } from '../package/support/type-check.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { type InstalledProject, installedProject } from '../support/installed-project.js';
import { NO_MSW_TYPES_SOURCE } from './fixtures/no-msw-types.js';
import { APP_BUNDLERS } from './support/app-bundlers.js';
import { serveDirectory } from './support/static-server.js';

const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const BUNDLERS = ['esbuild (no splitting)', 'Vite', 'webpack'] as const;
const TYPES_FILES = ['no-msw-types.mts', 'no-msw-types.cts'];

let project: InstalledProject;
let browser: Browser;
let outputs: string;
const built: Record<string, string> = {};

beforeAll(async () => {
  project = await installedProject({
    name: 'animal-store-no-msw',
    refresh: async (directory) => {
      await copyFile(join(FIXTURES, 'no-msw-page.js'), join(directory, 'no-msw-page.js'));
      for (const file of TYPES_FILES) await writeFile(join(directory, file), NO_MSW_TYPES_SOURCE);
      const compilerOptions = {
        ...STRICT_APPLICATION_OPTIONS,
        lib: ['es2023', 'dom'],
        module: 'nodenext',
        moduleResolution: 'nodenext',
      };
      await writeFile(
        join(directory, 'tsconfig.json'),
        `${JSON.stringify({ compilerOptions, files: TYPES_FILES }, null, 2)}\n`,
      );
    },
  });
  outputs = await mkdtemp(join(tmpdir(), 'animal-store-no-msw-'));
  // One after another: Vite writes the project's index.html.
  for (const name of BUNDLERS) {
    const started = performance.now();
    built[name] = await (APP_BUNDLERS[name] as (typeof APP_BUNDLERS)[string])(
      project.directory,
      'no-msw-page.js',
      join(outputs, name),
    ).then(
      () => 'built',
      (error: unknown) => String(error),
    );
    log(`  ${name} without msw: ${built[name]} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (outputs !== undefined) await rm(outputs, { recursive: true, force: true });
});

describe.concurrent('the testing entry in an application without msw', { timeout: 60_000 }, () => {
  it('is an application where msw does not resolve', ({ expect }) => {
    const require = createRequire(join(project.directory, 'package.json'));
    expect(() => require.resolve('msw')).toThrow(/Cannot find module 'msw'/);
    expect(require.resolve('animal-store-sdk/testing')).toContain(join('node_modules', 'animal-store-sdk'));
  });

  it.for(BUNDLERS)('%s builds the page, which runs in Chromium on store.fetch', async (name, { expect }) => {
    expect(built[name]).toBe('built');
    const site = await serveDirectory(join(outputs, name), join(outputs, 'no-worker.js'));
    const tab = await browser.newPage();
    try {
      const pageErrors: string[] = [];
      tab.on('pageerror', (error) => pageErrors.push(error.message));
      await tab.goto(site.origin);
      const report = JSON.parse(
        (await tab.locator('#report[data-done]').textContent({ timeout: 30_000 })) ?? '',
      ) as Record<string, unknown>;

      expect(report).toEqual({
        ok: true,
        listed: 3,
        afterFault: 3,
        reset: 5,
        statuses: [200, 503, 200, 200],
        handlers: expect.stringMatching(
          /^store\.handlers needs msw, which could not be loaded \(.+\)\. Install it/,
        ),
      });
      expect(pageErrors).toEqual([]);
    } finally {
      await tab.close();
      await site.close();
    }
  });

  it('type-checks the declarations with skipLibCheck: false, as ES module and CommonJS', async ({
    expect,
  }) => {
    const { stdout } = await run(TSC, ['-p', 'tsconfig.json', '--pretty', 'false'], {
      cwd: project.directory,
      node: PINNED_NODE,
    });

    expect(stdout).toBe('');
  });
});
