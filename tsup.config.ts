import { resolve } from 'node:path';
import type { Plugin } from 'esbuild';
import { defineConfig, type Options } from 'tsup';

const shared = {
  target: 'es2022',
  treeshake: true,
  sourcemap: false,
  // Keep `node:` specifiers: without the prefix a browser bundler would try to polyfill `http`.
  removeNodeProtocol: false,
} satisfies Options;

/** Builds `x.browser.ts` in place of `x.ts` wherever a module has a browser variant. */
export const browserVariants: Plugin = {
  name: 'browser-variants',
  setup(build) {
    build.onResolve({ filter: /\/(start-http-server|object-schema|channels)\.js$/ }, (args) => ({
      path: resolve(args.resolveDir, args.path.replace(/\.js$/, '.browser.ts')),
    }));
  },
};

export default defineConfig([
  {
    ...shared,
    name: 'library',
    entry: {
      index: 'src/index.ts',
      'testing/index': 'src/testing/index.ts',
      'redis/index': 'src/redis/index.ts',
      'otel/index': 'src/otel/index.ts',
    },
    format: ['esm', 'cjs'],
    dts: true,
    // Shared chunks keep one copy of the model for both entries, and keep the HTTP server a lazily
    // imported chunk so that `./testing` loads `node:http` only when `listen()` is called.
    splitting: true,
    // The builds run at once; this one must not delete the files the others write.
    clean: ['!testing/cli.js', '!testing/browser.js', '!browser.js'],
  },
  {
    ...shared,
    name: 'browser',
    // The entries under the `browser` condition, for bundlers that build a page, each one file with
    // the modules' browser variants: the root entry's model objects are plain zod/mini objects
    // (lighter than the compiled ones of the Node build), and `./testing` has no HTTP server, so that
    // no bundler, splitting or not, finds `node:http` in it. Types are the ones of the Node build.
    entry: { browser: 'src/index.ts', 'testing/browser': 'src/testing/index.ts' },
    format: ['esm'],
    platform: 'browser',
    dts: false,
    splitting: false,
    clean: false,
    esbuildPlugins: [browserVariants],
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
