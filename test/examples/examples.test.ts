import { execFile } from 'node:child_process';
import { delimiter, dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFakePetStore,
  DEFAULT_API_KEY,
  type RunningFakeServer,
  samplePets,
} from '../../src/testing/index.js';

const root = resolve(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');
// Each example takes a second or two; the margin is for a machine busy with other test files.
const RUN_TIMEOUT_MS = 30_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `examples/<file>` as a newcomer would, with PETSTORE_* unset unless `env` sets them, under
 * the Node that runs the tests.
 */
function run(file: string, args: string[] = [], env: Record<string, string> = {}): Promise<Run> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith('PETSTORE_')),
  );
  const PATH = [dirname(process.execPath), process.env.PATH].join(delimiter);
  return new Promise((done, fail) => {
    const child = execFile(
      tsx,
      [join('examples', file), ...args],
      { cwd: root, env: { ...inherited, PATH, ...env }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        // A non-zero exit or a kill after the timeout is a result to assert on; a failed spawn is not.
        if (typeof error?.code === 'string') fail(error);
        else done({ code: child.exitCode, stdout, stderr });
      },
    );
  });
}

/** Every line of output, and that no API key or bearer token is among them. */
function outputOf(result: Run, keys: string[] = [DEFAULT_API_KEY]): string {
  const output = `${result.stdout}\n${result.stderr}`;
  for (const key of keys) expect(output).not.toContain(key);
  expect(output).not.toMatch(/bearer/i);
  return output;
}

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
    expect(result.stderr).toContain('getPet (GET /pets/{petId}) is deprecated');
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
      'RateLimitError code=client_rate_limited status=429',
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
    // The client held the 15 calls beyond the window's 60 for the rest of the minute...
    const wait = /onRateLimit: 15 listPets calls wait (\d+\.\d) s \(budget\)/.exec(output);
    expect(Number(wait?.[1])).toBeGreaterThanOrEqual(59);
    expect(Number(wait?.[1])).toBeLessThanOrEqual(61);
    expect(output).toMatch(/\] 60 of 75 done; rateLimit: 0 of 60 left/);
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

  it('run.ts runs an example by name and lists the names otherwise', async () => {
    const named = await run('run.ts', ['quickstart']);
    expect(named.code, named.stderr).toBe(0);
    expect(outputOf(named)).toContain('createPet: created #6 Biscuit');
    const unknown = await run('run.ts', ['nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'No example "nope": npm run example -- <quickstart, errors, rate-limits, custom-fetch>',
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
