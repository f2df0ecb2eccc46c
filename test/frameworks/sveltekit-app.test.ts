/**
 * The SDK in a SvelteKit app built with adapter-node, from the packed tarball, against the fake's
 * HTTP server started with the package's own command. The app gives the client SvelteKit's
 * `event.fetch`, as SvelteKit asks of server code; the fake's request log shows every retry reached
 * the service.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Server, startFakeServer } from './support/app-process.js';
import { BUILD_TIMEOUT_MS } from './support/built-app.js';
import { createSession, describeLog, type FakeSession, type LoggedRequest } from './support/fake-session.js';
import { startSvelteKit, svelteKitBuild } from './support/sveltekit-app.js';

const CASE_TIMEOUT_MS = 30_000;

describe('a SvelteKit app built with adapter-node', { timeout: CASE_TIMEOUT_MS }, () => {
  let fake: { server: Server; origin: string };
  let app: { server: Server; origin: string };
  const sessions: FakeSession[] = [];

  beforeAll(async () => {
    const { directory } = await svelteKitBuild();
    fake = await startFakeServer(directory);
    app = await startSvelteKit(directory, {
      FAKE_STORE_ORIGIN: fake.origin,
      PETSTORE_BASE_URL: `${fake.origin}/v1`,
      PETSTORE_API_KEY: 'test-api-key',
    });
  }, 2 * BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await Promise.allSettled(sessions.map((session) => session.end()));
    await app?.server.stop();
    await fake?.server.stop();
  });

  async function withOne429(path: string): Promise<{ response: Response; session: FakeSession }> {
    const session = await createSession(fake.origin);
    sessions.push(session);
    await session.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });
    const response = await fetch(`${app.origin}${path}`, {
      headers: { 'x-fake-session': session.id },
      signal: AbortSignal.timeout(CASE_TIMEOUT_MS),
    });
    return { response, session };
  }

  it.for([
    { kind: 'server route (+server.js)', path: '/api/pets' },
    { kind: 'page load (+page.server.js)', path: '/pets' },
  ])('retries one 429 against the service from a $kind given event.fetch', async ({ kind, path }) => {
    const { response, session } = await withOne429(path);
    const body = await response.text();
    const requests = await session.requests();
    console.log(`[sveltekit] ${kind}, one 429 (Retry-After: 1): ${describeLog(requests)}`);

    expect(response.status).toBe(200);
    expect(body).toMatch(path === '/pets' ? /<li>Rex<\/li><li>Bella<\/li><li>Milo<\/li>/ : /"name":"Milo"/);
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /pets 429',
      'GET /pets 200',
    ]);
    const [first, retry] = requests as [LoggedRequest, LoggedRequest];
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(990);
  });
});
