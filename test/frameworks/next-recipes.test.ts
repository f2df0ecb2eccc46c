/**
 * The two ways docs/testing-server-apps.md gives to test a server-rendered app end to end, run as a
 * user runs them: Playwright (`@playwright/test`, with the system's Chromium) against the Next.js app
 * under `next start`, first with the fake's command and one session per test, then with Next's test
 * mode answering the server's fetches from an in-process store. The recipes' files are the app's
 * (test/frameworks/fixtures/next-app: playwright.config.mjs, playwright.testmode.config.mjs, e2e/).
 */
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumPath } from '../support/chromium.js';
import { startServer } from './support/app-process.js';
import { BUILD_TIMEOUT_MS } from './support/built-app.js';
import { type NextBuild, nextBuild } from './support/next-app.js';

/** Three browser tests and two servers to start, on a busy 2-core machine. */
const RECIPE_TIMEOUT_MS = 180_000;

/** Two ports free at this moment, for the servers Playwright starts (its `webServer`s). */
async function freePorts(): Promise<[number, number]> {
  const probes = [createServer(), createServer()];
  await Promise.all(probes.map((probe) => once(probe.listen(0, '127.0.0.1'), 'listening')));
  const ports = probes.map((probe) => (probe.address() as { port: number }).port) as [number, number];
  await Promise.all(probes.map((probe) => new Promise((resolve) => probe.close(resolve))));
  return ports;
}

interface PlaywrightReport {
  stats: { expected: number; unexpected: number; flaky: number; skipped: number };
  suites: { specs: { title: string; ok: boolean }[] }[];
}

/** Runs `playwright test -c config` in the app, bounded in time, and returns its JSON report. */
async function playwright(build: NextBuild, config: string): Promise<PlaywrightReport> {
  const [fakePort, appPort] = await freePorts();
  const report = join(build.directory, `${config}.report.json`);
  const runner = startServer(
    [
      join(build.directory, 'node_modules', '@playwright', 'test', 'cli.js'),
      'test',
      '-c',
      config,
      '--workers=1',
      '--reporter=json',
    ],
    build.directory,
    {
      FAKE_PORT: String(fakePort),
      APP_PORT: String(appPort),
      CHROME_PATH: chromiumPath(),
      NEXT_DIST_DIR: build.distDir,
      NODE_ENV: 'production',
      NEXT_TELEMETRY_DISABLED: '1',
      PLAYWRIGHT_JSON_OUTPUT_NAME: report,
    },
  );
  const timer = setTimeout(() => void runner.stop(), RECIPE_TIMEOUT_MS - 10_000);
  try {
    await once(runner.child, 'exit');
  } finally {
    clearTimeout(timer);
    // Playwright stops its web servers; a run that was killed leaves them to this.
    await runner.stop();
  }
  const json = await readFile(report, 'utf8').catch(() => {
    throw new Error(`Playwright wrote no report. It printed:\n${runner.output()}`);
  });
  return JSON.parse(json) as PlaywrightReport;
}

describe('testing the Next.js app end to end', { timeout: RECIPE_TIMEOUT_MS }, () => {
  let build: NextBuild;
  beforeAll(async () => {
    build = await nextBuild('turbopack');
  }, 2 * BUILD_TIMEOUT_MS);

  it.for([
    { recipe: 'Playwright with the fake server and a session per test', config: 'playwright.config.mjs' },
    {
      recipe: "Next's test mode answering the server's fetches from createFakePetStore()",
      config: 'playwright.testmode.config.mjs',
    },
  ])('$recipe: every test passes', async ({ recipe, config }) => {
    const report = await playwright(build, config);
    const specs = report.suites.flatMap((suite) =>
      suite.specs.map((spec) => `${spec.ok ? '✓' : '×'} ${spec.title}`),
    );
    console.log(`[${recipe}]\n${specs.join('\n')}`);

    expect(report.stats).toMatchObject({ expected: 3, unexpected: 0, flaky: 0, skipped: 0 });
  });
});
