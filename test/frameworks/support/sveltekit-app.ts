/**
 * The SvelteKit app of test/frameworks/fixtures/sveltekit-app, built once with `vite build` and
 * adapter-node, and served by the server that adapter writes (`node build`).
 *
 * @module
 */
import { join } from 'node:path';
import { freePort, printed, type Server, startServer } from './app-process.js';
import { appProject, buildOnce } from './built-app.js';

/** SvelteKit, its Node adapter, Svelte and Vite, at releases that agree with each other. */
const SVELTEKIT_PACKAGES = [
  '@sveltejs/kit@3.2.0',
  '@sveltejs/adapter-node@6.0.1',
  '@sveltejs/vite-plugin-svelte@7.3.1',
  'svelte@5.57.3',
  'vite@8.3.8',
];

/** The built app's project directory, and what the build printed. */
export async function svelteKitBuild(): Promise<{ directory: string; output: string }> {
  const project = await appProject('sveltekit-app', SVELTEKIT_PACKAGES);
  const output = await buildOnce({
    fixture: 'sveltekit-app',
    project,
    output: 'build',
    args: [join(project.directory, 'node_modules', 'vite', 'bin', 'vite.js'), 'build'],
    env: { NODE_ENV: 'production' },
  });
  return { directory: project.directory, output };
}

/** The built app's server on a free loopback port, and its origin. */
export async function startSvelteKit(
  directory: string,
  env: NodeJS.ProcessEnv,
): Promise<{ server: Server; origin: string }> {
  const server = startServer(['build'], directory, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    ...env,
  });
  const origin = await printed(server, /Listening on (http:\/\/\S+)/);
  return { server, origin };
}
