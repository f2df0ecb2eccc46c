import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { playwright } from '@vitest/browser-playwright';
import { msw } from 'msw/vite';
import { defineConfig, type Plugin, type TestProjectConfiguration } from 'vitest/config';
import { locateRuntime } from './test/runtimes/support/runtimes.js';
import { CHROMIUM_ARGS, locateChromium } from './test/support/chromium.js';
import { locateRedisServer } from './test/support/redis-server.js';

// Some checks need a system program: the browser checks Chromium, the Redis checks redis-server.
// CI must run them all, so there a missing one fails the run; on a developer's machine the rest
// runs, with a plain notice of what did not.
const chromium = locateChromium();
const redis = locateRedisServer();
const BROWSER_CHECKS_IN_NODE = [
  'test/bundle/browser-app.test.ts',
  'test/bundle/testing-bundles.test.ts',
  'test/bundle/testing-without-msw.test.ts',
  'test/remote/pet-page.test.ts',
  'test/bundle/vite-app.test.ts',
  'test/examples/testing-browser-setup.test.ts',
];
const REDIS_CHECKS = ['test/redis/**', 'test/fleet/**'];
for (const [program, notRun] of [
  [chromium, `the browser project and ${BROWSER_CHECKS_IN_NODE.join(', ')}`],
  [redis, REDIS_CHECKS.join(', ')],
] as const) {
  if (program.found) continue;
  if (process.env.CI) throw new Error(program.message);
  console.warn(`\n${program.message}\nNot run here: ${notRun}.\n`);
}

// Bun and Deno are checked by their test file, which runs on Node as well; workerd's files run on
// workerd alone, so they are left out here, the same way, where workerd does not run.
const WORKERD_CHECKS = ['test/runtimes/workerd.test.ts', 'test/runtimes/workers-vitest.test.ts'];
const workerdRuns = locateRuntime('workerd', WORKERD_CHECKS.join(', ')) !== undefined;

const node: TestProjectConfiguration = {
  test: {
    name: 'node',
    environment: 'node',
    include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
    exclude: [
      'test/browser/**',
      // Each is a project of its own, run by test/examples/testing-setups.test.ts with its own configuration.
      'examples/testing/**',
      ...(chromium.found ? [] : BROWSER_CHECKS_IN_NODE),
      ...(workerdRuns ? [] : WORKERD_CHECKS),
      ...(redis.found ? [] : REDIS_CHECKS),
    ],
    globalSetup: ['test/support/build-if-missing.ts'],
  },
};

/** Loads `x.browser.ts` in place of `x.ts` wherever a module of src/ has one, as the package's browser build does. */
const browserVariants: Plugin = {
  name: 'browser-variants',
  enforce: 'pre',
  resolveId(source, importer) {
    if (importer === undefined || !/^\.\.?\/.*\.js$/.test(source) || !importer.includes('/src/')) return null;
    const variant = resolve(dirname(importer), source.replace(/\.js$/, '.browser.ts'));
    return existsSync(variant) ? variant : null;
  },
};

const browser: TestProjectConfiguration = {
  // Serves the worker script of the installed msw, so it always matches msw/browser.
  plugins: [msw({ mode: 'worker-only' }), browserVariants],
  test: {
    name: 'browser',
    include: ['test/browser/**/*.test.ts'],
    // A service on another origin than the page, for what CORS does to the client.
    globalSetup: ['test/browser/support/cors-service.ts'],
    browser: {
      enabled: true,
      headless: true,
      provider: playwright({
        launchOptions: { executablePath: chromium.found ? chromium.path : '', args: CHROMIUM_ARGS },
      }),
      instances: [{ browser: 'chromium' }],
    },
  },
};

export default defineConfig({
  test: {
    projects: chromium.found ? [node, browser] : [node],
  },
});
