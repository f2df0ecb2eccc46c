import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/**/*.test.ts', 'examples/**/*.test.ts'],
          exclude: ['test/browser/**'],
        },
      },
    ],
  },
});
