import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakePetStore, type RunningFakeServer, samplePets } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { outputOf, RUN_TIMEOUT_MS, runExample as run } from './support/run-example.js';

describe.concurrent('examples', { timeout: 2 * RUN_TIMEOUT_MS }, () => {
  it('quickstart tours the client on the embedded fake server', async () => {
    const result = await run('quickstart.ts');
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result);
    expect(result.stdout.split('\n')[0]).toMatch(
      /^Using the embedded fake server at http:\/\/127\.0\.0\.1:\d+\/v1/,
    );
    expect(output).toContain('listPets: 5 pets: #1 Rex, #2 Bella, #3 Milo, #4 Luna, #5 Oscar');
    expect(output).toContain('createPet: created #6 Biscuit (available)');
    expect(output).toContain('getPet: #6 is Biscuit');
    expect(result.stderr).toContain('getPet is deprecated and will be removed');
    expect(output).toContain("listPets({ status: 'available' }): 3 pets, #6 among them: true");
    expect(output).toMatch(
      /withResponse: 201 Created, Location: http:\/\/127\.0\.0\.1:\d+\/v1\/pets\/7, created #7 Pepper/,
    );
    expect(output).toMatch(/rateLimit: 55 of 60 requests left, window resets in \d+ s/);
  });

  it('errors provokes and names every error class, with its code and status', async () => {
    const result = await run('errors.ts');
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result, [DEFAULT_API_KEY, 'not-a-valid-key', 'tiny-plan-key']);
    expect(output).toContain('embedded fake server');
    const lines = [
      'RequestValidationError code=- status=-',
      'NotFoundError code=not_found status=404',
      'AuthenticationError code=unauthorized status=401',
      'BadRequestError code=invalid_body status=400',
      'RefusedError code=client_rate_limited status=-',
      'RateLimitError code=rate_limited status=429',
      'InternalServerError code=service_unavailable status=503',
      'ResponseValidationError code=- status=-',
      'APIConnectionTimeoutError code=- status=-',
      'APIConnectionError code=- status=-',
      'APIUserAbortError code=- status=-',
    ];
    const shown = result.stdout.split('\n').filter((line) => /^ {2}\w+Error code=/.test(line));
    expect(shown.map((line) => line.slice(2, line.indexOf(':')))).toEqual(lines);
    expect(output).not.toContain('skipped');
  });

  it('rate-limits paces a 75-call burst through a Free minute without a refused request', async () => {
    const result = await run('rate-limits.ts');
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result);
    expect(output).toContain('embedded fake server');
    // A burst of 15 after the first call, then the window's budget spread over the minute...
    expect(output).toMatch(/\[t\+0\.0 s\] onWait: \d+ listPets calls wait [12]\.\d s \(budget\)/);
    expect(output).toMatch(/\[t\+0\.0 s\] 15 of 75 done/);
    expect(output).toMatch(/\[t\+[12]\d\.\d s\] 30 of 75 done/);
    expect(output).toMatch(/\[t\+5\d\.\d s\] 60 of 75 done; rateLimit: 0 of 60 left/);
    // ...and sent them once the window reset.
    expect(output).toMatch(/\[t\+6\d\.\d s\] 61 of 75 done; rateLimit: 59 of 60 left/);
    expect(output).toMatch(/All 75 calls succeeded in 6\d\.\d s of simulated time .*; responses: 75 × 200\n/);
  });

  it('custom-fetch logs each attempt without headers, and cancels calls', async () => {
    const result = await run('custom-fetch.ts');
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result);
    expect(output).toContain('embedded fake server');
    expect(output).toMatch(/fetch: GET http:\/\/127\.0\.0\.1:\d+\/v1\/pets\?limit=3&status=available -> 200/);
    expect(output).toMatch(/fetch: POST http:\/\/127\.0\.0\.1:\d+\/v1\/pets -> 201/);
    expect(output).toMatch(/fetch: GET \S+ -> AbortError/);
    expect(output).toMatch(/fetch: GET \S+ -> TimeoutError/);
    expect(output.match(/APIUserAbortError: The request was aborted/g)).toHaveLength(2);
    expect(output).not.toMatch(/authorization|content-type/i);
  });

  it('fleet says how to get redis-server when there is none', async () => {
    const result = await run('fleet.ts', [], { REDIS_SERVER: '/nonexistent/redis-server' });
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('no redis-server was found');
    expect(result.stdout).toContain('`apt-get install redis-server`');
    expect(result.stdout).toContain('`brew install redis`');
    expect(result.stdout).toContain('REDIS_URL');
  });

  it('run.ts runs an example by name and lists the names otherwise', async () => {
    const named = await run('run.ts', ['quickstart']);
    expect(named.code, named.stderr).toBe(0);
    expect(outputOf(named)).toContain('createPet: created #6 Biscuit');
    const unknown = await run('run.ts', ['nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'No example "nope": npm run example -- <quickstart, errors, rate-limits, custom-fetch, fleet>',
    );
  });
});

describe('quickstart against the service named by PETSTORE_BASE_URL and PETSTORE_API_KEY', {
  timeout: RUN_TIMEOUT_MS,
}, () => {
  const apiKey = 'sk-live-0123456789abcdef';
  const service = createFakePetStore({ pets: samplePets(2), apiKeys: { [apiKey]: 'pro' } });
  let server: RunningFakeServer;
  beforeAll(async () => {
    server = await service.listen({ port: 0, hostname: '127.0.0.1' });
  });
  afterAll(() => server.close());

  it('uses that service and key, and never prints the key', async () => {
    const result = await run('quickstart.ts', [], {
      PETSTORE_BASE_URL: server.url,
      PETSTORE_API_KEY: apiKey,
    });
    expect(result.code, result.stderr).toBe(0);
    const output = outputOf(result, [apiKey]);
    expect(result.stdout.split('\n')[0]).toBe(
      `Using the Animal Store service at ${server.url} (from PETSTORE_BASE_URL)`,
    );
    expect(output).toContain('listPets: 2 pets: #1 Rex, #2 Bella');
    expect(output).toContain('createPet: created #3 Biscuit');
    expect(output).toMatch(/rateLimit: 295 of 300 requests left/);
    expect(service.requests.length).toBeGreaterThan(0);
    for (const request of service.requests) expect(request.headers.authorization).toBe(`Bearer ${apiKey}`);
  });
});
