import { playwright } from '@vitest/browser-playwright';
import { msw } from 'msw/vite';
import { defineConfig } from 'vitest/config';
import { CHROMIUM_ARGS, chromiumPath } from './test/support/chromium.js';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: ['test/browser/**'],
          globalSetup: ['test/support/build-if-missing.ts'],
        },
      },
      {
        // Serves the worker script of the installed msw, so it always matches msw/browser.
        plugins: [msw({ mode: 'worker-only' })],
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          browser: {
            enabled: true,
            headless: true,
            // Throws, so that the whole run fails saying how to install it, when there is no Chromium:
            // the node project's bundle checks need it as well.
            provider: playwright({ launchOptions: { executablePath: chromiumPath(), args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
