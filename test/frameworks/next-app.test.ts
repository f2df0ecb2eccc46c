/**
 * The SDK inside a Next.js App Router app, as a user ships it: the packed tarball installed into the
 * app, built with `next build` (Turbopack) and again with `--webpack`, run with `next start`, against
 * the fake's HTTP server started with the package's own command. The fake's request log is the
 * witness of what reached the service. Each case has a session of its own, which the request names in
 * a header the app reads where it makes its client (lib/pet-store.js).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from './support/app-process.js';
import { startFakeServer } from './support/app-process.js';
import { BUILD_TIMEOUT_MS } from './support/built-app.js';
import { createSession, describeLog, type FakeSession, type LoggedRequest } from './support/fake-session.js';
import { BUNDLERS, type NextBuild, nextBuild, startNext } from './support/next-app.js';

/** A page render that waits out one Retry-After, or retries a 500 twice, on a busy machine. */
const CASE_TIMEOUT_MS = 30_000;
const MAX_RETRIES = 2;

describe.each(BUNDLERS)('a Next.js 16 app built with %s', { timeout: CASE_TIMEOUT_MS }, (bundler) => {
  let build: NextBuild;
  let fake: { server: Server; origin: string };
  let app: { server: Server; origin: string };
  const sessions: FakeSession[] = [];

  beforeAll(async () => {
    build = await nextBuild(bundler);
    fake = await startFakeServer(build.directory);
    app = await startNext(build, {
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

  async function session(): Promise<FakeSession> {
    const created = await createSession(fake.origin);
    sessions.push(created);
    return created;
  }

  /** Requests the app at `path` as the session's test, with the header that names the session. */
  function request(fake: FakeSession, path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    headers.set('x-fake-session', fake.id);
    return fetch(`${app.origin}${path}`, { ...init, headers, signal: AbortSignal.timeout(CASE_TIMEOUT_MS) });
  }

  function report(kind: string, requests: readonly LoggedRequest[]): void {
    console.log(`[next ${bundler}] ${kind}: ${describeLog(requests)}`);
  }

  it('prints no warning about the SDK while building', () => {
    const warnings = build.output.split('\n').filter((line) => /⚠|warn/i.test(line));
    console.log(`[next ${bundler}] build warnings:\n${warnings.join('\n') || '(none)'}`);

    expect(warnings.filter((line) => /animal-store|PetStore/i.test(line))).toEqual([]);
  });

  it('renders a server component that waits out one 429 and retries against the service', async () => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const page = await (await request(fake, '/pets')).text();
    const requests = await fake.requests();
    report('server component, one 429 (Retry-After: 1)', requests);

    expect(page).toContain('<ul id="pets"><li>Rex</li><li>Bella</li><li>Milo</li></ul>');
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /pets 429',
      'GET /pets 200',
    ]);
    expect(
      (requests[1] as LoggedRequest).receivedAt - (requests[0] as LoggedRequest).receivedAt,
    ).toBeGreaterThanOrEqual(990);
  });

  it('renders the error of a server component after 1 + maxRetries requests meet a lasting 500', async () => {
    const fake = await session();
    await fake.injectFault({ status: 500, times: 'Infinity', match: { method: 'GET', path: '/pets' } });

    const page = await (await request(fake, '/pets')).text();
    const requests = await fake.requests();
    report('server component, lasting 500', requests);

    expect(page).toMatch(/<p id="error">InternalServerError(<!-- -->)? (<!-- -->)?500<\/p>/);
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual(
      Array(1 + MAX_RETRIES).fill('GET /pets 500'),
    );
  });

  it('lists pets from a route handler that waits out one 429', async () => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const response = await request(fake, '/api/pets');
    const requests = await fake.requests();
    report('route handler, one 429 (Retry-After: 1)', requests);

    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
    expect(requests.map((logged) => logged.status)).toEqual([429, 200]);
  });

  it('creates a pet once from a route handler', async () => {
    const fake = await session();

    const response = await request(fake, '/api/pets', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Nova ${bundler}` }),
    });
    const requests = await fake.requests();
    report('route handler, create', requests);

    expect(response.status).toBe(201);
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'POST /pets 201',
    ]);
    expect((await fake.pets()).map((pet) => pet.name)).toEqual(['Rex', 'Bella', 'Milo', `Nova ${bundler}`]);
  });

  it('creates a pet once from a server action, posted as the form does without JavaScript', async () => {
    const fake = await session();
    const form = await (await request(fake, '/create')).text();
    const actionField = /name="(\$ACTION_ID_[0-9a-f]+)"/.exec(form)?.[1];
    expect(actionField).toBeDefined();

    const body = new FormData();
    body.set(actionField as string, '');
    body.set('name', `Orion ${bundler}`);
    const response = await request(fake, '/create', { method: 'POST', body });
    const requests = await fake.requests();
    report('server action, create', requests);

    expect(response.status).toBe(200);
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'POST /pets 201',
    ]);
    expect((await fake.pets()).map((pet) => pet.name)).toEqual(['Rex', 'Bella', 'Milo', `Orion ${bundler}`]);
  });

  it("serves a listPets cached with fetchOptions from Next's data cache until revalidateTag", async () => {
    const fake = await session();
    const names = async () =>
      ((await (await request(fake, '/api/cached-pets')).json()) as { name: string }[]).map((pet) => pet.name);

    const first = await names();
    await fake.setPets([{ id: 7, name: 'Luna', categoryId: 1, status: 'available' }]);
    const cached = await names();
    const logBefore = await fake.requests();
    expect((await request(fake, '/api/revalidate', { method: 'POST' })).status).toBe(204);
    const fresh = await names();
    const requests = await fake.requests();
    report('route handler, fetchOptions next.tags, read / read / revalidateTag / read', requests);

    expect([first, cached, fresh]).toEqual([['Rex', 'Bella', 'Milo'], ['Rex', 'Bella', 'Milo'], ['Luna']]);
    expect(logBefore.map((logged) => logged.status)).toEqual([200]);
    expect(requests.map((logged) => logged.status)).toEqual([200, 200]);
  });

  it('retries a listPets cached with fetchOptions against the service, not a cache, after a 429', async () => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const response = await request(fake, '/api/cached-pets');
    const requests = await fake.requests();
    report('route handler, fetchOptions next.tags, one 429 (Retry-After: 1)', requests);

    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
    expect(requests.map((logged) => logged.status)).toEqual([429, 200]);
    const [first, retry] = requests as [LoggedRequest, LoggedRequest];
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it('lists pets from an Edge route, with the browser build, waiting out one 429', async () => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const response = await request(fake, '/edge');
    const requests = await fake.requests();
    report('Edge route, one 429 (Retry-After: 1)', requests);

    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(3);
    expect(requests.map((logged) => logged.status)).toEqual([429, 200]);
    // The Node build publishes on diagnostics channels; the browser build has none.
    const manifest = JSON.parse(
      await readFile(join(build.directory, build.distDir, 'server', 'middleware-manifest.json'), 'utf8'),
    ) as { functions: Record<string, { files: string[] }> };
    const edgeCode = await Promise.all(
      (manifest.functions['/edge/route']?.files ?? []).map((file) =>
        readFile(join(build.directory, build.distDir, file), 'utf8'),
      ),
    );
    expect(edgeCode.join('\n')).toContain('Invalid PetStoreClient options');
    expect(edgeCode.join('\n')).not.toContain('diagnostics_channel');
  });
});
