import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createFakePetStore, type RunningFakeServer, samplePets } from '../../src/testing/index.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { bundleForBrowser } from './support/browser-bundle.js';
import { type PageServer, servePage } from './support/page-server.js';

/** The warning the first getPet of a process gives. */
const GET_PET_WARNING =
  'animal-store-sdk: getPet is deprecated and will be removed on 2030-12-05; use listPets instead.';

const API_KEY = 'sk-page-test-0123456789';
const store = createFakePetStore({ apiKeys: { [API_KEY]: 'pro' }, pets: samplePets(2) });

let page: PageServer;
let api: RunningFakeServer;
let browser: Browser;

beforeAll(async () => {
  await ensurePackageBuilt();
  const app = await bundleForBrowser({ entry: 'test/bundle/fixtures/pet-page.js' });
  page = await servePage('Animal Store', app.code);
  api = await store.listen({ port: 0, hostname: '127.0.0.1' });
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await api?.close();
  await page?.close();
});

it('lists, creates and gets pets from a page on another origin, and reads the rate-limit headers', async () => {
  const tab = await browser.newPage();
  const pageErrors: string[] = [];
  tab.on('pageerror', (error) => pageErrors.push(error.message));
  tab.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });

  await tab.goto(`${page.origin}/?${new URLSearchParams({ baseUrl: api.url, apiKey: API_KEY })}`);
  const report: unknown = JSON.parse(
    (await tab.locator('#report[data-done]').textContent({ timeout: 15_000 })) ?? '',
  );

  expect(report).toEqual({
    ok: true,
    before: ['Rex', 'Bella'],
    created: { id: 3, name: 'Biscuit', categoryId: 2, status: 'available' },
    location: `${api.url}/pets/3`,
    fetched: { id: 3, name: 'Biscuit', categoryId: 2, status: 'available' },
    available: ['Rex', 'Biscuit'],
    remainingHeader: '296',
    rateLimit: { limit: 300, remaining: 296 },
    warnings: [GET_PET_WARNING],
  });
  expect(pageErrors).toEqual([]);
  // Cross-origin requests from the page itself, each with its bearer token.
  expect(store.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
    'GET /pets',
    'POST /pets',
    'GET /pets/3',
    'GET /pets',
  ]);
  for (const request of store.requests) {
    expect(request.headers.origin).toBe(page.origin);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
  }
});
