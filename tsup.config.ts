import { existsSync } from 'node:fs';
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

/**
 * Builds `x.<variant>.ts` in place of `x.ts` wherever a module of src/ has one, trying the variants
 * in order: how one build (CommonJS, browsers, Workers) swaps in what only it may load.
 */
function variants(...names: string[]): Plugin {
  return {
    name: `variants-${names.join('-')}`,
    setup(build) {
      build.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
        for (const name of names) {
          const path = resolve(args.resolveDir, args.path.replace(/\.js$/, `.${name}.ts`));
          if (existsSync(path)) return { path };
        }
        return undefined;
      });
    },
  };
}

/** The browser build's variants, also used by the tests that weigh that build from source. */
export const browserVariants: Plugin = variants('browser');

const entries = {
  index: 'src/index.ts',
  'testing/index': 'src/testing/index.ts',
  'store/index': 'src/store/index.ts',
  'diagnostics/index': 'src/diagnostics/index.ts',
  'redis/index': 'src/redis/index.ts',
  'otel/index': 'src/otel/index.ts',
};

export default defineConfig([
  {
    ...shared,
    name: 'library',
    entry: entries,
    format: ['esm'],
    // @internal members stay out: PetStoreClient[Symbol.asyncDispose] is typed by AsyncDisposal instead.
    dts: { compilerOptions: { stripInternal: true } },
    // Shared chunks keep one copy of the model for every entry, and keep the HTTP server a lazily
    // imported chunk so that `./testing` loads `node:http` only when `listen()` is called.
    splitting: true,
    // The builds run at once; this one must not delete the files the others write.
    clean: [
      '!*.cjs',
      '!*.d.cts',
      '!**/*.cjs',
      '!**/*.d.cts',
      '!browser.js',
      '!testing/cli.js',
      '!testing/browser.js',
      '!store/browser.js',
      '!testing/workerd.js',
    ],
  },
  {
    ...shared,
    name: 'commonjs',
    entry: entries,
    format: ['cjs'],
    // @internal members stay out: PetStoreClient[Symbol.asyncDispose] is typed by AsyncDisposal instead.
    dts: { compilerOptions: { stripInternal: true } },
    // One file per entry, written by esbuild itself: a test runner's CommonJS module system (Jest's)
    // can neither `import()` a chunk nor `require` an ES module, so the HTTP server is a lazily
    // initialised module inside the file, and msw a lazy `require`.
    splitting: false,
    // esbuild's own tree shaking: tsup's extra pass (rollup) would hoist the lazy require of node:http.
    treeshake: false,
    clean: false,
    // ky is an ES module only: the CommonJS build carries its own copy, and the ES module build stays
    // as light as it was.
    noExternal: ['ky'],
    esbuildPlugins: [variants('cjs')],
  },
  {
    ...shared,
    name: 'browser',
    // The entries under the `browser` condition, for bundlers that build a page, each one file with
    // the modules' browser variants: the root entry's model objects are plain zod/mini objects
    // (lighter than the compiled ones of the Node build) and it has no diagnostics channels, and
    // `./testing` has no HTTP server, so that no bundler, splitting or not, finds `node:http` in it.
    // `./store` too, as pages and edge runtimes share a store between clients. Types are the ones of
    // the Node build.
    entry: {
      browser: 'src/index.ts',
      'testing/browser': 'src/testing/index.ts',
      'store/browser': 'src/store/index.ts',
    },
    format: ['esm'],
    platform: 'browser',
    dts: false,
    splitting: false,
    clean: false,
    esbuildPlugins: [browserVariants],
  },
  {
    ...shared,
    name: 'workerd',
    // `./testing` under the `workerd` condition (Cloudflare's tools): the browser build without msw.
    entry: { 'testing/workerd': 'src/testing/index.ts' },
    format: ['esm'],
    platform: 'neutral',
    dts: false,
    splitting: false,
    clean: false,
    esbuildPlugins: [variants('workerd', 'browser')],
  },
  {
    ...shared,
    name: 'cli',
    // The command is run, never imported: one ES module file with no declarations.
    entry: { 'testing/cli': 'src/testing/cli/cli.ts' },
    format: ['esm'],
    dts: false,
    splitting: false,
    clean: false,
  },
]);
