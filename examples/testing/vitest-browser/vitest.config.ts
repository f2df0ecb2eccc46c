import { playwright } from '@vitest/browser-playwright';
import { defineConfig } from 'vitest/config';

// Playwright's Chromium, or the one CHROME_PATH names (a CI image's, which runs as root: no sandbox).
const chrome = process.env.CHROME_PATH;

// The page is served from this directory: public/mockServiceWorker.js comes from `npx msw init public`.
export default defineConfig({
  test: {
    browser: {
      enabled: true,
      headless: true,
      provider: playwright(
        chrome === undefined ? {} : { launchOptions: { executablePath: chrome, args: ['--no-sandbox'] } },
      ),
      instances: [{ browser: 'chromium' }],
    },
  },
});
