import { defineConfig, type Options } from 'tsup';

const shared = {
  target: 'es2022',
  treeshake: true,
  sourcemap: false,
  // Keep `node:` specifiers: without the prefix a browser bundler would try to polyfill `http`.
  removeNodeProtocol: false,
} satisfies Options;

export default defineConfig([
  {
    ...shared,
    name: 'library',
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'redis/index': 'src/redis/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Shared chunks keep one copy of the model for both entries, and keep the HTTP server a lazily
    // imported chunk so that `./testing` loads `node:http` only when `listen()` is called.
    splitting: true,
    // Both builds run at once; this one must not delete the command the other writes.
    clean: ['!testing/cli.js'],
  },
  {
    ...shared,
    name: 'cli',
    // The command is run, never imported: one ES module file with no declarations.
    entry: { 'testing/cli': 'src/testing/cli.ts' },
    format: ['esm'],
    dts: false,
    splitting: false,
    clean: false,
  },
]);
