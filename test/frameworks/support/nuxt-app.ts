/**
 * The Nuxt app of test/frameworks/fixtures/nuxt-app, built once with `nuxt build` (Nitro's node-server
 * preset) and served by the server it writes (`node .output/server/index.mjs`).
 *
 * @module
 */
import { join } from 'node:path';
import { freePort, printed, type Server, startServer } from './app-process.js';
import { appProject, buildOnce } from './built-app.js';

/** Nuxt 4, which brings Vue, Nitro and Vite at releases that agree. */
const NUXT_PACKAGES = ['nuxt@4.5.2'];

/** The built app's project directory, and what the build printed. */
export async function nuxtBuild(): Promise<{ directory: string; output: string }> {
  const project = await appProject('nuxt-app', NUXT_PACKAGES);
  const output = await buildOnce({
    fixture: 'nuxt-app',
    project,
    output: '.output',
    args: [join(project.directory, 'node_modules', 'nuxt', 'bin', 'nuxt.mjs'), 'build'],
    env: { NODE_ENV: 'production', NUXT_TELEMETRY_DISABLED: '1' },
  });
  return { directory: project.directory, output };
}

/** The built server on a free loopback port, and the app's origin. */
export async function startNuxt(
  directory: string,
  env: NodeJS.ProcessEnv,
): Promise<{ server: Server; origin: string }> {
  const server = startServer(['.output/server/index.mjs'], directory, {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    ...env,
  });
  const origin = await printed(server, /Listening on (http:\/\/\S+)/);
  return { server, origin };
}
