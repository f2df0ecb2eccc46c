/**
 * The browser quickstart (examples/browser) built by Vite and served by `vite preview`, whose proxy
 * plays the application's backend, in Chromium against a fake Animal Store on loopback.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakePetStore, type RunningFakeServer, samplePets } from '../../src/testing/index.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';

const API_KEY = 'sk-kept-on-the-server-0123456789';
const configFile = resolve(import.meta.dirname, '../../examples/browser/vite.config.ts');
const store = createFakePetStore({ apiKeys: { [API_KEY]: 'pro' }, pets: samplePets(5) });

let service: RunningFakeServer;
let outDir: string;
let site: PreviewServer;
let browser: Browser;

beforeAll(async () => {
  service = await store.listen({ port: 0, hostname: '127.0.0.1' });
  // The backend (Vite's server) reads the service and its key from its own environment.
  process.env.PETSTORE_BASE_URL = service.url;
  process.env.PETSTORE_API_KEY = API_KEY;
  outDir = await mkdtemp(join(tmpdir(), 'animal-store-browser-example-'));
  await build({ configFile, logLevel: 'silent', build: { outDir, emptyOutDir: true } });
  site = await preview({
    configFile,
    logLevel: 'silent',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1' },
  });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await service?.close();
  if (outDir !== undefined) await rm(outDir, { recursive: true, force: true });
  delete process.env.PETSTORE_BASE_URL;
  delete process.env.PETSTORE_API_KEY;
});

it('lists the available animals through the backend route, the key added on the server', async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  await page.goto(site.resolvedUrls?.local[0] ?? '');

  await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toMatch(/available/);
  expect(await page.locator('#pets li').allTextContents()).toEqual(['#1 Rex', '#4 Luna']);
  expect(await page.locator('#status').textContent()).toBe('2 available; 299 requests left');
  expect(problems).toEqual([]);
  expect(store.requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /pets']);
  expect(store.requests[0]?.headers.authorization).toBe(`Bearer ${API_KEY}`);
});

it('ships no key in the page: the built files never hold it', async () => {
  const files = await readdir(outDir, { recursive: true, withFileTypes: true });
  const texts = await Promise.all(
    files.filter((file) => file.isFile()).map((file) => readFile(join(file.parentPath, file.name), 'utf8')),
  );
  expect(texts.length).toBeGreaterThan(1);
  for (const text of texts) expect(text).not.toContain(API_KEY);
});
