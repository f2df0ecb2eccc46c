/**
 * The Next.js app of test/frameworks/fixtures/next-app, built once with each of Next's bundlers
 * (`next build` with Turbopack, and with `--webpack`), both builds side by side in one project, each
 * in its own `distDir`.
 *
 * @module
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readManifest } from '../../package/support/built-package.js';
import type { InstalledProject } from '../../support/installed-project.js';
import { printed, type Server, startServer } from './app-process.js';
import { appProject, buildOnce } from './built-app.js';

/** The Next.js release the app is built with, and its React. */
const NEXT_PACKAGES = ['next@16.4.6', 'react@19.3.1', 'react-dom@19.3.1'];

/** Next's two bundlers: `next build` uses Turbopack unless given `--webpack`. */
export const BUNDLERS = ['turbopack', 'webpack'] as const;
export type Bundler = (typeof BUNDLERS)[number];

/** A finished build of the app. */
export interface NextBuild {
  readonly directory: string;
  readonly bundler: Bundler;
  /** The build's folder, relative to the app (`NEXT_DIST_DIR`). */
  readonly distDir: string;
  /** What `next build` printed. */
  readonly output: string;
}

// An app is built and started for production, as users run it, whatever NODE_ENV the test runner set.
const NEXT_ENV = { NODE_ENV: 'production', NEXT_TELEMETRY_DISABLED: '1' };

/**
 * Leaves `"type": "module"` out of the app's package.json, as create-next-app does: with it, Next
 * 16.4's `next build --webpack` fails on an Edge route (ENOENT for the route's
 * `route_client-reference-manifest.js` while collecting page data); Turbopack builds either way.
 */
async function commonJsPackage(directory: string): Promise<void> {
  const file = join(directory, 'package.json');
  const { type: _type, ...manifest } = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** The project with the tarball, Next.js, React and Playwright's test runner installed. */
export async function nextProject(): Promise<InstalledProject> {
  const { devDependencies } = await readManifest();
  return appProject(
    'next-app',
    [...NEXT_PACKAGES, `@playwright/test@${devDependencies['@playwright/test']}`],
    commonJsPackage,
  );
}

function next(directory: string): string {
  return join(directory, 'node_modules', 'next', 'dist', 'bin', 'next');
}

/** The app built with `bundler`. */
export async function nextBuild(bundler: Bundler): Promise<NextBuild> {
  const project = await nextProject();
  const distDir = `.next-${bundler}`;
  const output = await buildOnce({
    fixture: 'next-app',
    project,
    output: distDir,
    args: [next(project.directory), 'build', ...(bundler === 'webpack' ? ['--webpack'] : [])],
    env: { ...NEXT_ENV, NEXT_DIST_DIR: distDir },
    // The end-to-end tests beside the app are not part of it.
    reads: (file) => !file.startsWith('e2e/') && !file.startsWith('playwright.'),
  });
  return { directory: project.directory, bundler, distDir, output };
}

/** `next start` on a free loopback port, and the app's origin. */
export async function startNext(
  build: NextBuild,
  env: NodeJS.ProcessEnv,
): Promise<{ server: Server; origin: string }> {
  const server = startServer(
    [next(build.directory), 'start', '--port', '0', '--hostname', '127.0.0.1'],
    build.directory,
    { ...NEXT_ENV, NEXT_DIST_DIR: build.distDir, ...env },
  );
  const origin = await printed(server, /Local:\s+(http:\/\/\S+)/);
  await printed(server, /(Ready) in/);
  return { server, origin };
}
