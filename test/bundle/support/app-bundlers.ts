/**
 * The page script of an installed application built for browsers by three bundlers, each with its
 * everyday settings for a production build: esbuild (one file, no code splitting), Vite and webpack.
 *
 * @module
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { build as viteBuild } from 'vite';
import webpack from 'webpack';

/** A bundler: builds `entry` (relative to `project`) into `out`, with an index.html loading it. */
export type AppBundler = (project: string, entry: string, out: string) => Promise<void>;

const PAGE = (script: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Animal Store</title></head>
  <body>
    <pre id="report">Loading…</pre>
    <script type="module" src="${script}"></script>
  </body>
</html>
`;

async function esbuildApp(project: string, entry: string, out: string): Promise<void> {
  await esbuild.build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    splitting: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outfile: join(out, 'app.js'),
    logLevel: 'silent',
  });
  await writeFile(join(out, 'index.html'), PAGE('/app.js'));
}

async function viteApp(project: string, entry: string, out: string): Promise<void> {
  // Vite builds an application from its index.html.
  await writeFile(join(project, 'index.html'), PAGE(`/${entry}`));
  await viteBuild({
    root: project,
    configFile: false,
    logLevel: 'silent',
    publicDir: false,
    build: { outDir: out, emptyOutDir: true },
  });
}

async function webpackApp(project: string, entry: string, out: string): Promise<void> {
  const compiler = webpack({
    mode: 'production',
    target: 'web',
    context: project,
    entry: `./${entry}`,
    output: { path: out, filename: 'app.js' },
    devtool: false,
    performance: { hints: false },
  });
  await new Promise<void>((resolve, reject) => {
    compiler.run((error, stats) => {
      compiler.close(() => undefined);
      if (error) reject(error);
      else if (stats?.hasErrors()) reject(new Error(stats.toString('errors-only')));
      else resolve();
    });
  });
  await writeFile(join(out, 'index.html'), PAGE('/app.js'));
}

/** The bundlers, by name. */
export const APP_BUNDLERS: Readonly<Record<string, AppBundler>> = {
  'esbuild (no splitting)': esbuildApp,
  Vite: viteApp,
  webpack: webpackApp,
};

// A static or dynamic import, or a require, of a Node built-in module, with or without `node:`.
const NODE_BUILTIN =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*)["'](?:node:[\w/]+|(?:http|https|net|tls|fs|fs\/promises|path|os|child_process|stream|zlib|crypto|worker_threads|url|util|events|buffer)(?:\/[\w/]*)?)["']/g;

/** The imports of Node built-ins in the JavaScript files under `out`. */
export async function nodeBuiltinImports(out: string): Promise<string[]> {
  const files = (await readdir(out, { recursive: true })).filter((file) => file.endsWith('.js'));
  const found: string[] = [];
  for (const file of files) {
    const code = await readFile(join(out, file), 'utf8');
    for (const match of code.matchAll(NODE_BUILTIN)) found.push(`${file}: ${match[0]}`);
  }
  return found;
}
