/**
 * A web page tested in Chromium against the command as its backend, driven through
 * connectFakePetStore: seeded pets, a 503 for one request, the page's error state, the request log.
 */
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectFakePetStore, type RemoteFakePetStore } from '../../src/testing/index.js';
import { bundleForBrowser } from '../bundle/support/browser-bundle.js';
import { type PageServer, servePage } from '../bundle/support/page-server.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { type Run, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const API_KEY = 'page-key-0123';
const finish: Array<() => void> = [];
let cli: Run;
let fake: RemoteFakePetStore;
let page: PageServer;
let browser: Browser;

beforeAll(async () => {
  await ensurePackageBuilt();
  const app = await bundleForBrowser({ entry: 'test/remote/fixtures/pet-list-page.js' });
  page = await servePage('Animal Store', app.code);
  // The page drives the control API too (the second test): the command trusts its origin.
  cli = run(['--port', '0', '--key', API_KEY, '--seed', '5', '--trusted-origins', page.origin], {
    onTestFinished: (hook) => finish.push(hook as () => void),
  });
  fake = connectFakePetStore(await waitForUrl(cli));
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await page?.close();
  for (const hook of finish) hook();
});

async function openPage(): Promise<Page> {
  const tab = await browser.newPage();
  const problems: string[] = [];
  tab.on('pageerror', (error) => problems.push(error.message));
  await tab.goto(`${page.origin}/?${new URLSearchParams({ baseUrl: fake.baseUrl, apiKey: API_KEY })}`);
  await tab.locator('body[data-state="ready"], body[data-state="error"]').waitFor({ timeout: 15_000 });
  expect(problems).toEqual([]);
  return tab;
}

const names = (tab: Page) => tab.locator('#pets li').allTextContents();

it('lists the seeded pets, shows its error state for a 503, and recovers on reload', async () => {
  await fake.reset();
  await fake.setPets([
    { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
    { id: 2, name: 'Tom', categoryId: 2, status: 'sold' },
  ]);
  const tab = await openPage();
  expect(await names(tab)).toEqual(['Rex (available)', 'Tom (sold)']);
  expect(await tab.locator('#status').textContent()).toBe('2 animals');

  await fake.injectFault({ status: 503, match: { method: 'GET', path: '/pets' } });
  await tab.locator('#reload').click();
  await tab.locator('body[data-state="error"]').waitFor({ timeout: 15_000 });
  expect(await tab.getByRole('alert').textContent()).toBe(
    'The animals could not be loaded (503 service_unavailable). Try again.',
  );
  expect(await names(tab)).toEqual([]);

  await tab.locator('#reload').click();
  await tab.locator('body[data-state="ready"]').waitFor({ timeout: 15_000 });
  expect(await names(tab)).toEqual(['Rex (available)', 'Tom (sold)']);

  // What the page sent, as the fake recorded it: three calls from the page's origin, with its key;
  // the preflights and the control requests are not in the log.
  const requests = await fake.requests;
  expect(requests.map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
    `GET ${fake.baseUrl}/pets?limit=100 200`,
    `GET ${fake.baseUrl}/pets?limit=100 503`,
    `GET ${fake.baseUrl}/pets?limit=100 200`,
  ]);
  for (const request of requests) {
    expect(request.headers.origin).toBe(page.origin);
    expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
  }
  await tab.close();
});

it('drives the fake from inside the page too: connectFakePetStore in the browser', async () => {
  await fake.reset();
  const tab = await openPage();
  // The seed pets of the command (--seed 5).
  expect(await names(tab)).toHaveLength(5);
  const seen = await tab.evaluate(async (baseUrl) => {
    const { connectFakePetStore: connect } = window as unknown as {
      connectFakePetStore: typeof connectFakePetStore;
    };
    const inPage = connect(baseUrl);
    await inPage.setPets([{ id: 9, name: 'Luna', categoryId: 1, status: 'pending' }]);
    const session = await inPage.createSession();
    const sessionPets = await session.pets;
    await session.end();
    return {
      pets: await inPage.pets,
      requests: (await inPage.requests).length,
      sessionPets: sessionPets.length,
    };
  }, fake.baseUrl);
  expect(seen).toEqual({
    pets: [{ id: 9, name: 'Luna', categoryId: 1, status: 'pending' }],
    requests: 1,
    sessionPets: 5,
  });
  await tab.locator('#reload').click();
  await tab.locator('body[data-state="ready"]').waitFor({ timeout: 15_000 });
  expect(await names(tab)).toEqual(['Luna (pending)']);
  await tab.close();
});
