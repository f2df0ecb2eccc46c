/**
 * The Vite app of docs/browser.md, its files taken from the document as written, in a project with the
 * packed tarball installed: in development (`vite`) in Chromium against msw's worker and the fake; then
 * `vite build`, whose output holds neither msw, the fake, nor the worker's registration (and does in a
 * development build, so the check can fail); then `vite preview`, whose two routes add the keys the
 * page never holds, against a fake service on loopback.
 */

import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { createServer, type PreviewServer, preview, type ViteDevServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakePetStore, type RunningFakeServer, samplePets } from '../../src/testing/index.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { installedProject } from '../support/installed-project.js';

/** The code blocks of docs/browser.md whose first line names a file (`// src/main.ts`, `<!-- index.html -->`). */
function appFiles(markdown: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [, code = ''] of markdown.matchAll(/^```(?:ts|html)\n([\s\S]*?)^```$/gm)) {
    const name = /^(?:\/\/|<!--) ([\w./-]+\.\w+)(?: -->)?\n/.exec(code)?.[1];
    if (name !== undefined) files.set(name, code);
  }
  return files;
}

const APP = appFiles(readFileSync(join(REPO_ROOT, 'docs', 'browser.md'), 'utf8'));
const API_KEY = 'sk-route-key-kept-on-the-server-0123';
const PAGE_KEY = 'sk-short-lived-page-key-4567';
/** What the page lists, through each client: the available animals of samplePets(5). */
const LISTED = ['#1 Rex', '#4 Luna'];
/** Strings only msw, the fake or the worker's registration put in a bundle. */
const DEV_ONLY = ['[MSW]', 'mockServiceWorker', 'serviceWorker', 'injectFault', 'test-api-key'];

let directory: string;
let browser: Browser;

beforeAll(async () => {
  expect([...APP.keys()].sort()).toEqual(['index.html', 'src/main.ts', 'vite.config.ts']);
  ({ directory } = await installedProject({
    name: 'animal-store-vite-app',
    subdirectory: 'app',
    packages: ['msw@^3.0.5'],
    toolsFromRepository: true,
    refresh: async (cwd) => {
      for (const [name, code] of APP) {
        await mkdir(dirname(join(cwd, name)), { recursive: true });
        await writeFile(join(cwd, name), code);
      }
    },
  }));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 240_000);

afterAll(async () => {
  await browser?.close();
});

/** Opens `url` and returns what each list shows once both are filled, and the page's errors. */
async function listsOf(
  url: string,
): Promise<{ page: Page; lists: Record<string, string[]>; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(url);
  const lists: Record<string, string[]> = {};
  for (const list of ['via-route', 'short-lived']) {
    await page.locator(`#${list} li`).first().waitFor({ timeout: 30_000 });
    lists[list] = await page.locator(`#${list} li`).allTextContents();
  }
  return { page, lists, errors };
}

/**
 * `vite build` as an application runs it, in a process of its own: inside vitest, NODE_ENV is `test`,
 * which Vite would take over `production`. With NODE_ENV `development`, `import.meta.env.DEV` is true.
 */
async function viteBuild(outDir: string, nodeEnv: '' | 'development' = ''): Promise<void> {
  const vite = join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js');
  await run(PINNED_NODE, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--minify'], {
    cwd: directory,
    node: PINNED_NODE,
    env: { NODE_ENV: nodeEnv },
  });
}

async function builtTexts(outDir: string): Promise<Map<string, string>> {
  const files = await readdir(outDir, { recursive: true, withFileTypes: true });
  const texts = new Map<string, string>();
  for (const file of files.filter((entry) => entry.isFile())) {
    const path = join(file.parentPath, file.name);
    texts.set(path.slice(outDir.length + 1), await readFile(path, 'utf8'));
  }
  return texts;
}

describe('the Vite app of docs/browser.md', { timeout: 120_000 }, () => {
  it('in development, lists the fake’s pets through msw’s worker, with apiKey: null and a key function', async () => {
    const server: ViteDevServer = await createServer({
      root: directory,
      configFile: join(directory, 'vite.config.ts'),
      logLevel: 'silent',
      server: { host: '127.0.0.1', port: 0 },
    });
    try {
      await server.listen();
      const { page, lists, errors } = await listsOf(server.resolvedUrls?.local[0] ?? '');
      const worker = await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL);

      expect(lists).toEqual({ 'via-route': LISTED, 'short-lived': LISTED });
      expect(worker).toMatch(/\/mockServiceWorker\.js$/);
      expect(errors).toEqual([]);
    } finally {
      await server.close();
    }
  });

  describe('built, and served by vite preview against a service', () => {
    const service = createFakePetStore({
      apiKeys: { [API_KEY]: 'pro', [PAGE_KEY]: 'free' },
      pets: samplePets(5),
    });
    let running: RunningFakeServer;
    let outDir: string;

    beforeAll(async () => {
      running = await service.listen({ port: 0, hostname: '127.0.0.1' });
      // The server's environment, and the service's address, which the build gives the page.
      Object.assign(process.env, {
        PETSTORE_BASE_URL: running.url,
        PETSTORE_API_KEY: API_KEY,
        PETSTORE_PAGE_KEY: PAGE_KEY,
        VITE_ANIMAL_STORE_URL: running.url,
      });
      outDir = await mkdtemp(join(tmpdir(), 'animal-store-vite-app-'));
      await viteBuild(join(outDir, 'production'));
    }, 120_000);

    afterAll(async () => {
      await running?.close();
      if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
      for (const name of [
        'PETSTORE_BASE_URL',
        'PETSTORE_API_KEY',
        'PETSTORE_PAGE_KEY',
        'VITE_ANIMAL_STORE_URL',
      ]) {
        delete process.env[name];
      }
    });

    it('leaves msw, the fake and the worker out of the build, which a development build holds', async () => {
      await viteBuild(join(outDir, 'development'), 'development');
      const production = await builtTexts(join(outDir, 'production'));
      const development = [...(await builtTexts(join(outDir, 'development'))).values()].join('\n');

      expect([...production.keys()].filter((name) => name.endsWith('.js'))).toHaveLength(1);
      expect([...production.keys()]).not.toContain('mockServiceWorker.js');
      const found = DEV_ONLY.filter((marker) =>
        [...production.values()].some((text) => text.includes(marker)),
      );
      expect(found).toEqual([]);
      expect(DEV_ONLY.filter((marker) => !development.includes(marker))).toEqual([]);
    });

    it('in vite preview, the routes add the keys the page never holds', async () => {
      const site: PreviewServer = await preview({
        root: directory,
        configFile: join(directory, 'vite.config.ts'),
        logLevel: 'silent',
        build: { outDir: join(outDir, 'production') },
        preview: { port: 0, host: '127.0.0.1' },
      });
      try {
        const { lists, errors } = await listsOf(site.resolvedUrls?.local[0] ?? '');

        expect(lists).toEqual({ 'via-route': LISTED, 'short-lived': LISTED });
        expect(errors).toEqual([]);
        expect(service.requests.map((request) => request.headers.authorization).sort()).toEqual(
          [`Bearer ${API_KEY}`, `Bearer ${PAGE_KEY}`].sort(),
        );
        const built = [...(await builtTexts(join(outDir, 'production'))).values()];
        for (const text of built) {
          expect(text).not.toContain(API_KEY);
          expect(text).not.toContain(PAGE_KEY);
        }
      } finally {
        await site.close();
      }
    });
  });
});
