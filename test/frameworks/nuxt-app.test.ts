/**
 * The SDK in a Nuxt 4 app, from the packed tarball: a production build (Nitro's node-server preset)
 * against the fake's HTTP server started with the package's own command. The client lives in
 * server/utils; a page fetches the app's own API route with `useFetch` (the files docs/frameworks.md
 * shows). The fake's request log shows what reached the service: with `retry: 0` a lasting 500 meets
 * it 1 + maxRetries times, and with `useFetch`'s default retry twice that; a cached handler answers
 * through an outage until its entry is stale.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedFiles, GUIDE } from './support/documented-files.js';
import { describeLog, type LoggedRequest } from './support/fake-session.js';
import { nuxtBuild, startNuxt } from './support/nuxt-app.js';
import { servedApp, statuses } from './support/served-app.js';

/** A page that waits out one Retry-After, or retries a 500 twice (twice over), on a busy machine. */
const CASE_TIMEOUT_MS = 30_000;
const MAX_RETRIES = 2;

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('a Nuxt 4 app built for production', { timeout: CASE_TIMEOUT_MS }, () => {
  const served = servedApp(nuxtBuild, startNuxt, { PETS_CACHE_SECONDS: '2' }, CASE_TIMEOUT_MS);
  const { session, request } = served;

  it('keeps the SDK and the key out of the browser’s bundle (the client lives in server/utils)', async () => {
    const scripts = (await filesUnder(join(served.directory, '.output', 'public'))).filter((file) =>
      file.endsWith('.js'),
    );
    expect(scripts.length).toBeGreaterThan(0);
    const sources = await Promise.all(scripts.map((file) => readFile(file, 'utf8')));
    expect(sources.filter((source) => /PetStoreClient|PETSTORE_API_KEY|animal-store/.test(source))).toEqual(
      [],
    );
  });

  it(`runs the files ${GUIDE} shows, as it shows them`, () => {
    const files = documentedFiles('nuxt-app');
    expect(files.map(({ file }) => file)).toEqual([
      'server/utils/pet-store.js',
      'server/api/pets.get.js',
      'app/pages/pets.vue',
      'server/api/cached-pets.get.js',
    ]);
    for (const { file, documented, actual } of files) expect(documented, file).toBe(actual);
  });

  it.for([
    { kind: 'a page (useFetch of the API route)', path: '/pets' },
    { kind: 'an API route (server/api)', path: '/api/pets' },
  ])('retries one 429 against the service from $kind', async ({ kind, path }) => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const response = await request(fake, path);
    const body = await response.text();
    const requests = await fake.requests();
    console.log(`[nuxt] ${kind}, one 429 (Retry-After: 1): ${describeLog(requests)}`);

    expect(response.status).toBe(200);
    expect(body).toMatch(path === '/pets' ? /<li>Rex<\/li><li>Bella<\/li><li>Milo<\/li>/ : /"name":"Milo"/);
    expect(statuses(requests)).toEqual(['GET /pets 429', 'GET /pets 200']);
    const [first, retry] = requests as [LoggedRequest, LoggedRequest];
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it.for([
    {
      page: '/pets',
      fetch: 'useFetch with retry: 0',
      reaches: '1 + maxRetries',
      times: 1,
      shows: /<p id="error">InternalServerError 500<\/p>/,
    },
    {
      page: '/pets-default-retry',
      fetch: "useFetch's default retry",
      reaches: '2 × (1 + maxRetries)',
      times: 2,
      shows: /<p id="error">502<\/p>/,
    },
  ])(
    'a lasting 500 reaches the service $reaches times from a page with $fetch',
    async ({ page: path, fetch, times, shows }) => {
      const fake = await session();
      await fake.injectFault({ status: 500, times: 'Infinity', match: { method: 'GET', path: '/pets' } });

      const page = await (await request(fake, path)).text();
      const requests = await fake.requests();
      console.log(`[nuxt] page with ${fetch}, lasting 500: ${describeLog(requests)}`);

      expect(page).toMatch(shows);
      expect(statuses(requests)).toEqual(Array((1 + MAX_RETRIES) * times).fill('GET /pets 500'));
    },
  );

  it('a cached handler answers from its cache through an outage until maxAge, then meets it (swr: false)', async () => {
    const fake = await session();
    const before = await request(fake, '/api/cached-pets');
    expect(before.status).toBe(200);
    await fake.injectFault({ status: 500, times: 'Infinity', match: { method: 'GET', path: '/pets' } });

    const cached = await request(fake, '/api/cached-pets');
    expect(cached.status).toBe(200);
    expect(await cached.json()).toHaveLength(3);
    expect(statuses(await fake.requests())).toEqual(['GET /pets 200']);

    // PETS_CACHE_SECONDS is 2: past it, the entry is stale.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    const stale = await request(fake, '/api/cached-pets');
    const requests = await fake.requests();
    console.log(`[nuxt] cached handler, then a lasting 500: ${describeLog(requests)}`);

    expect(stale.status).toBe(502);
    expect(await stale.json()).toMatchObject({ data: { error: 'InternalServerError', status: 500 } });
    expect(statuses(requests)).toEqual(['GET /pets 200', ...Array(1 + MAX_RETRIES).fill('GET /pets 500')]);
  });
});
