import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

const dom = (environment) => ({ test: { name: environment, environment, include: ['pets.test.mjs'] } });

export default defineConfig({
  test: {
    projects: [
      dom('jsdom'),
      dom('happy-dom'),
      {
        // public/mockServiceWorker.js, from `npx msw init public`, is served at the root.
        publicDir: 'public',
        test: {
          name: 'browser',
          include: ['pets.browser.test.mjs'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: process.env.CHROME_PATH,
                args: (process.env.CHROME_ARGS ?? '').split(' ').filter(Boolean),
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
