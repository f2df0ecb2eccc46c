/**
 * The SDK in a React Router app (framework mode), from the packed tarball: a production build served by
 * `react-router-serve`, against the fake's HTTP server started with the package's own command. The
 * client lives in a `.server.js` module and gets each request's signal; loaders catch the SDK's errors
 * where their class is known: the files docs/frameworks.md shows. The fake's request log is the witness
 * of what reached the service.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { documentedFiles, GUIDE } from './support/documented-files.js';
import { describeLog, type LoggedRequest } from './support/fake-session.js';
import { reactRouterBuild, startReactRouter } from './support/react-router-app.js';
import { servedApp, statuses } from './support/served-app.js';

/** A page that waits out one Retry-After, or retries a 500 twice, on a busy machine. */
const CASE_TIMEOUT_MS = 30_000;
const MAX_RETRIES = 2;

describe('a React Router 8 app built for production', { timeout: CASE_TIMEOUT_MS }, () => {
  const served = servedApp(reactRouterBuild, startReactRouter, {}, CASE_TIMEOUT_MS);
  const { session, request } = served;

  it('keeps the SDK and the key out of the browser’s bundle (the client lives in a .server.js module)', async () => {
    const assets = join(served.directory, 'build', 'client', 'assets');
    const scripts = await Promise.all(
      (await readdir(assets))
        .filter((name) => name.endsWith('.js'))
        .map((name) => readFile(join(assets, name), 'utf8')),
    );
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((script) => /PetStoreClient|PETSTORE_API_KEY|animal-store/.test(script))).toEqual(
      [],
    );
  });

  it(`runs the files ${GUIDE} shows, as it shows them`, () => {
    const files = documentedFiles('react-router-app');
    expect(files.map(({ file }) => file)).toEqual(['app/pet-store.server.js', 'app/routes/pets.jsx']);
    for (const { file, documented, actual } of files) expect(documented, file).toBe(actual);
  });

  it.for([
    { kind: 'page loader', path: '/pets' },
    { kind: 'resource route', path: '/api/pets' },
  ])('retries one 429 against the service from a $kind', async ({ kind, path }) => {
    const fake = await session();
    await fake.injectFault({
      status: 429,
      headers: { 'Retry-After': '1' },
      match: { method: 'GET', path: '/pets' },
    });

    const response = await request(fake, path);
    const body = await response.text();
    const requests = await fake.requests();
    console.log(`[react-router] ${kind}, one 429 (Retry-After: 1): ${describeLog(requests)}`);

    expect(response.status).toBe(200);
    expect(body).toMatch(
      path === '/pets' ? /<ul id="pets"><li>Rex<\/li><li>Bella<\/li><li>Milo<\/li><\/ul>/ : /"name":"Milo"/,
    );
    expect(statuses(requests)).toEqual(['GET /pets 429', 'GET /pets 200']);
    const [first, retry] = requests as [LoggedRequest, LoggedRequest];
    expect(retry.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(990);
  });

  it('renders the error class a loader caught after 1 + maxRetries requests meet a lasting 500', async () => {
    const fake = await session();
    await fake.injectFault({ status: 500, times: 'Infinity', match: { method: 'GET', path: '/pets' } });

    const page = await (await request(fake, '/pets')).text();
    const requests = await fake.requests();
    console.log(`[react-router] page loader, lasting 500: ${describeLog(requests)}`);

    expect(page).toMatch(/<p id="error">InternalServerError(<!-- -->)? (<!-- -->)?500<\/p>/);
    expect(statuses(requests)).toEqual(Array(1 + MAX_RETRIES).fill('GET /pets 500'));
  });
});
