/**
 * The React Router app (framework mode) of test/frameworks/fixtures/react-router-app, built once with
 * `react-router build` and served by `react-router-serve`, as the framework's templates run it.
 *
 * @module
 */
import { join } from 'node:path';
import { freePort, printed, type Server, startServer } from './app-process.js';
import { appProject, buildOnce } from './built-app.js';

/**
 * React Router 8 at the release its serve and dev packages require exactly, React, Vite, and isbot
 * (which the default server entry imports; without it the build installs it itself).
 */
const REACT_ROUTER_PACKAGES = [
  'react-router@8.4.0',
  '@react-router/dev@8.4.0',
  '@react-router/node@8.4.0',
  '@react-router/serve@8.4.0',
  'react@19.3.1',
  'react-dom@19.3.1',
  'vite@8.3.8',
  'isbot@5.2.3',
];

/** The built app's project directory, and what the build printed. */
export async function reactRouterBuild(): Promise<{ directory: string; output: string }> {
  const project = await appProject('react-router-app', REACT_ROUTER_PACKAGES);
  const output = await buildOnce({
    fixture: 'react-router-app',
    project,
    output: 'build',
    args: [join(project.directory, 'node_modules', '@react-router', 'dev', 'bin.cjs'), 'build'],
    env: { NODE_ENV: 'production' },
  });
  return { directory: project.directory, output };
}

/** `react-router-serve` on a free loopback port, and the app's origin. */
export async function startReactRouter(
  directory: string,
  env: NodeJS.ProcessEnv,
): Promise<{ server: Server; origin: string }> {
  const port = await freePort();
  const server = startServer(
    [join(directory, 'node_modules', '@react-router', 'serve', 'bin.cjs'), 'build/server/index.js'],
    directory,
    { NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), ...env },
  );
  await printed(server, /\[react-router-serve\] (http:\/\/\S+)/);
  return { server, origin: `http://127.0.0.1:${port}` };
}
