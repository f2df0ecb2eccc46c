/**
 * One production app against the fake's command, for a describe block: built and started once
 * before its tests, each test on a fake session of its own, everything stopped after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { type Server, startFakeServer } from './app-process.js';
import { BUILD_TIMEOUT_MS } from './built-app.js';
import { createSession, type FakeSession, type LoggedRequest } from './fake-session.js';

/** What the tests of one app use. */
export interface ServedApp {
  /** The app's project, built. */
  readonly directory: string;
  /** A fake session of the test's own, ended after the block. */
  session(): Promise<FakeSession>;
  /** The app's page or route at `path`, requested as a visitor of the session. */
  request(session: FakeSession, path: string): Promise<Response>;
}

type Started = { server: Server; origin: string };

/**
 * Registers the block's `beforeAll` and `afterAll`: `build` the app, start the fake, `start` the app
 * with the fake's base URL and key in its environment (and `env`).
 */
export function servedApp(
  build: () => Promise<{ directory: string }>,
  start: (directory: string, env: NodeJS.ProcessEnv) => Promise<Started>,
  env: NodeJS.ProcessEnv,
  requestTimeoutMs: number,
): ServedApp {
  let directory = '';
  let fake: Started | undefined;
  let app: Started | undefined;
  const sessions: FakeSession[] = [];

  beforeAll(async () => {
    ({ directory } = await build());
    fake = await startFakeServer(directory);
    app = await start(directory, {
      FAKE_STORE_ORIGIN: fake.origin,
      PETSTORE_BASE_URL: `${fake.origin}/v1`,
      PETSTORE_API_KEY: 'test-api-key',
      ...env,
    });
  }, 2 * BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.allSettled(sessions.map((session) => session.end()));
    await app?.server.stop();
    await fake?.server.stop();
  });

  return {
    get directory() {
      return directory;
    },
    async session() {
      const created = await createSession(fake?.origin ?? '');
      sessions.push(created);
      return created;
    },
    request(session, path) {
      return fetch(`${app?.origin}${path}`, {
        headers: { 'x-fake-session': session.id },
        signal: AbortSignal.timeout(requestTimeoutMs),
      });
    },
  };
}

/** `GET /pets 429`: each logged request as the tests compare them. */
export const statuses = (requests: readonly LoggedRequest[]): string[] =>
  requests.map(({ method, path, status }) => `${method} ${path} ${status}`);
