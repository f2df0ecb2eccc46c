/**
 * Bundling code that imports `animal-store-sdk` for the browser, as an application's bundler would.
 *
 * @module
 */
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';
import { PACKAGE_ROOT } from '../../support/package-build.js';

/** What to bundle: an entry file, or source text whose imports resolve from the package root. */
export type BundleInput = { readonly entry: string } | { readonly source: string };

/** A browser bundle and its sizes. */
export interface BrowserBundle {
  readonly code: string;
  /** Bytes of the bundle as written. */
  readonly bytes: number;
  /** Bytes of the bundle gzipped at zlib's default level, as servers commonly send it. */
  readonly gzipBytes: number;
}

/**
 * Bundles for browsers as one ES module. `animal-store-sdk` resolves through the package's own
 * `exports` to dist/, or from `resolveDir` (an application with the tarball installed) for source
 * text; `external` packages are left out, to see what the rest weighs.
 */
export async function bundleForBrowser(
  input: BundleInput,
  options: { minify?: boolean; external?: string[]; plugins?: esbuild.Plugin[]; resolveDir?: string } = {},
): Promise<BrowserBundle> {
  const result = await esbuild.build({
    ...('entry' in input
      ? { entryPoints: [input.entry] }
      : { stdin: { contents: input.source, resolveDir: options.resolveDir ?? PACKAGE_ROOT, loader: 'ts' } }),
    absWorkingDir: PACKAGE_ROOT,
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'esm',
    target: 'es2022',
    minify: options.minify ?? false,
    external: options.external ?? [],
    plugins: options.plugins ?? [],
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (output === undefined) throw new Error('esbuild wrote no bundle');
  return {
    code: output.text,
    bytes: output.contents.byteLength,
    gzipBytes: gzipSync(output.contents).byteLength,
  };
}

/** `39,850 B gzip (38.9 KiB), 130,945 B minified (127.9 KiB)`, for logs. */
export function describeSize(gzipBytes: number, bytes: number): string {
  const size = (count: number) => `${count.toLocaleString('en-US')} B (${(count / 1024).toFixed(1)} KiB)`;
  return `${size(gzipBytes)} gzip, ${size(bytes)} minified`;
}
