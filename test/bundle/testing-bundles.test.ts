/**
 * An application's page that uses `animal-store-sdk` and `animal-store-sdk/testing` from the packed
 * tarball, bundled by esbuild (no splitting), Vite and webpack: no bundle holds a Node built-in, and
 * each runs the runtime scenario in Chromium with the fake store behind msw's service worker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { log } from '../package/support/log.js';
import { expectScenarioReport } from '../runtimes/support/expected-report.js';
import { type RuntimeProject, runtimeProject } from '../runtimes/support/runtime-project.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { APP_BUNDLERS, nodeBuiltinImports } from './support/app-bundlers.js';
import { serveDirectory } from './support/static-server.js';

const BUNDLERS = Object.keys(APP_BUNDLERS);
const EXPECTED_STATUS_LOG = /^Failed to load resource: the server responded with a status of (404|429) \(\)$/;

let project: RuntimeProject;
let browser: Browser;
let outputs: string;

beforeAll(async () => {
  project = await runtimeProject();
  outputs = await mkdtemp(join(tmpdir(), 'animal-store-app-bundles-'));
  // One after another: Vite writes the project's index.html.
  for (const [name, bundle] of Object.entries(APP_BUNDLERS)) {
    const started = performance.now();
    await bundle(project.directory, 'store-page.js', join(outputs, name));
    log(`  ${name}: bundled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  if (outputs !== undefined) await rm(outputs, { recursive: true, force: true });
});

describe.concurrent('the testing entry bundled for a page', { timeout: 60_000 }, () => {
  it.for(BUNDLERS)('%s leaves no Node built-in in the bundle', async (name, { expect }) => {
    expect(await nodeBuiltinImports(join(outputs, name))).toEqual([]);
  });

  it.for(BUNDLERS)('%s: the scenario runs in Chromium against msw’s worker', async (name, { expect }) => {
    const site = await serveDirectory(
      join(outputs, name),
      join(project.directory, 'node_modules', 'msw', 'lib', 'mockServiceWorker.js'),
    );
    const tab = await browser.newPage();
    try {
      const pageErrors: string[] = [];
      tab.on('pageerror', (error) => pageErrors.push(error.message));
      tab.on('console', (message) => {
        // Chromium logs every response of 400 and above; the scenario asks for a 404 and a 429.
        if (EXPECTED_STATUS_LOG.test(message.text())) return;
        if (message.type() === 'error' || message.type() === 'warning') pageErrors.push(message.text());
      });
      await tab.goto(site.origin);
      const report = JSON.parse(
        (await tab.locator('#report[data-done]').textContent({ timeout: 30_000 })) ?? '',
      ) as Record<string, unknown>;

      expect(report).toMatchObject({ ok: true, runtime: expect.stringContaining('Chrome/') });
      expectScenarioReport(expect, report, 'absent');
      expect(report.listen).toMatch(/^TypeError: store\.listen\(\) needs Node, Bun or Deno/);
      expect(pageErrors).toEqual([]);
    } finally {
      await tab.close();
      await site.close();
    }
  });
});
