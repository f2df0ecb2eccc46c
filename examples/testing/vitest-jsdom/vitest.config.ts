import { defineConfig } from 'vitest/config';

// A DOM for component tests (npm install -D jsdom); 'happy-dom' takes the same tests.
export default defineConfig({
  test: { environment: 'jsdom' },
});
