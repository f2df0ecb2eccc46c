import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { CliUsageError, internalErrorReport, parseCliArgs, USAGE } from '../../src/testing/cli-args.js';
import { ensurePackageBuilt } from '../support/package-build.js';

// The command as it ships, started by plain Node: starting it from src through tsx costs seconds on
// a busy machine, more than the windows these tests wait for.
const CLI = fileURLToPath(new URL('../../dist/testing/cli.js', import.meta.url));

/** Long enough for a process to start and serve a few windows on a busy 2-core machine. */
const PROCESS_TEST_TIMEOUT_MS = 30_000;

interface Run {
  readonly child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  /** Everything written to stderr so far. */
  stderr(): string;
  /** The exit code, once the process ends. */
  readonly exited: Promise<number | null>;
}

/** Starts the command; it is killed when the test (the context's) finishes, if still running. */
function run(args: readonly string[], { onTestFinished }: TestContext): Run {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, stdout: () => out, stderr: () => err, exited };
}

async function waitForUrl(cli: Run): Promise<string> {
  const deadline = Date.now() + PROCESS_TEST_TIMEOUT_MS / 2;
  for (;;) {
    const match = /listening on (\S+)/.exec(cli.stdout());
    if (match?.[1] !== undefined) return match[1];
    if (Date.now() > deadline || cli.child.exitCode !== null) {
      throw new Error(`No URL printed. stdout: ${cli.stdout()} stderr: ${cli.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('parseCliArgs', () => {
  it('has defaults', () => {
    expect(parseCliArgs([])).toEqual({
      kind: 'serve',
      port: 4010,
      host: '127.0.0.1',
      key: 'test-api-key',
      plan: 'free',
      seed: 0,
      maxBodyBytes: 1_048_576,
      maxRecordedRequests: 10_000,
      requestTimeoutMs: 30_000,
    });
  });

  it('reads every option', () => {
    expect(
      parseCliArgs([
        ...['-p', '0', '--host', '0.0.0.0', '--key', 'k1', '--plan', 'enterprise', '--seed', '30'],
        ...['--max-body', '2048', '--max-log', '5', '--request-timeout', '1500'],
      ]),
    ).toEqual({
      kind: 'serve',
      port: 0,
      host: '0.0.0.0',
      key: 'k1',
      plan: 'enterprise',
      seed: 30,
      maxBodyBytes: 2048,
      maxRecordedRequests: 5,
      requestTimeoutMs: 1500,
    });
    expect(parseCliArgs(['--plan', 'pro', '--limit', '10', '--window-ms', '3000'])).toMatchObject({
      plan: { perMinute: 10, perDay: 10_000, windowMs: 3_000 },
    });
    expect(parseCliArgs(['--plan', '5/50', '--window-ms', '500'])).toMatchObject({
      plan: { perMinute: 5, perDay: 50, windowMs: 500 },
    });
    expect(parseCliArgs(['--port=8080']).kind).toBe('serve');
    expect(parseCliArgs(['--plan', '100000/5000000'])).toMatchObject({
      plan: { perMinute: 100_000, perDay: 5_000_000 },
    });
    expect(parseCliArgs(['--cors-headers', 'Authorization, Content-Type,,authorization'])).toMatchObject({
      corsHeaders: ['Authorization', 'Content-Type'],
    });
    expect(parseCliArgs(['--cors-headers', ''])).toMatchObject({ corsHeaders: [] });
    expect(parseCliArgs(['--help'])).toEqual({ kind: 'help' });
    expect(parseCliArgs(['-h', '--port', 'nonsense'])).toEqual({ kind: 'help' });
  });

  it.each([
    [['--port', 'http'], /--port must be an integer from 0 to 65535, got "http"/],
    [['--port', '70000'], /--port/],
    [['--port', '-1'], /--port/],
    [['--port'], /--port/],
    [['--seed', '2.5'], /--seed must be an integer/],
    [['--seed', '100001'], /--seed/],
    [
      ['--plan', 'gold'],
      /--plan must be one of free, pro, business, enterprise, or <per minute>\/<per day>, got "gold"/,
    ],
    [['--plan', '0/10'], /--plan \(per minute\) must be an integer from 1/],
    [['--key', ''], /--key must be non-empty/],
    [['--limit', '0'], /--limit must be an integer from 1/],
    [['--limit', 'ten'], /--limit must be an integer/],
    [['--window-ms', '0'], /--window-ms must be an integer from 1 to 86400000, got "0"/],
    [['--window-ms', '86400001'], /--window-ms/],
    [['--host', ''], /--host must not be empty/],
    [['--max-body', '1e6'], /--max-body must be an integer/],
    [['--max-log', '-5'], /--max-log/],
    [['--request-timeout', '0'], /--request-timeout must be an integer from 1/],
    [
      ['--cors-headers', 'Retry After'],
      /--cors-headers: corsHeaders must hold header names, got "Retry After"/,
    ],
    [['--verbose'], /Unknown option '--verbose'/],
    [['serve'], /positional argument/],
  ])('rejects %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});

describe('internalErrorReport', () => {
  it('names the request and the failure, and never the headers that hold the key', () => {
    const failure = new TypeError('Converting circular structure to JSON');
    const line = internalErrorReport(failure, { method: 'GET', url: 'http://127.0.0.1:4010/v1/pets' });
    expect(line).toMatch(
      /^animal-store-fake-server: internal error answering GET http:\/\/127\.0\.0\.1:4010\/v1\/pets \(500 internal_error\): TypeError: Converting circular/,
    );
    expect(line.endsWith('\n')).toBe(true);
  });
});

describe.concurrent('animal-store-fake-server', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  beforeAll(() => ensurePackageBuilt(), 120_000);

  it('prints the help and exits 0', async (context) => {
    const cli = run(['--help'], context);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toBe(USAGE);
    expect(USAGE).toMatch(/--port.*--host.*--key.*--plan.*--limit.*--window-ms.*--seed.*--help/s);
  });

  it('exits 2 with a clear message on bad arguments', async (context) => {
    const cli = run(['--plan', 'gold'], context);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('animal-store-fake-server: --plan must be one of');
    expect(cli.stderr()).toContain('--help');
    expect(cli.stdout()).toBe('');
  });

  it.for(['SIGTERM', 'SIGINT'] as const)(
    'serves the seeded store and stops cleanly on %s',
    async (signal, context) => {
      const cli = run(['--port', '0', '--seed', '3', '--key', 'demo-key', '--plan', 'pro'], context);
      const url = await waitForUrl(cli);
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(cli.stdout()).toContain('API key: demo-key (pro plan: 300 requests per minute, 10000 per day)');

      const response = await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer demo-key' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-ratelimit-limit')).toBe('300');
      expect(await response.json()).toHaveLength(3);
      expect((await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer test-api-key' } })).status).toBe(
        401,
      );

      cli.child.kill(signal);
      expect(await cli.exited).toBe(0);
      expect(cli.stdout()).toContain(`Received ${signal}, stopping.`);
      expect(cli.stdout()).toContain('Stopped.');
      await expect(fetch(`${url}/pets`)).rejects.toThrow(TypeError);
    },
  );

  it('serves a custom window with --limit and --window-ms: 429 and Retry-After until it resets', async (context) => {
    const cli = run(['--port', '0', '--limit', '2', '--window-ms', '2000'], context);
    const url = await waitForUrl(cli);
    expect(cli.stdout()).toContain('API key: test-api-key (custom plan: 2 requests per 2 s, 1000 per day)');
    const get = () => fetch(`${url}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
    const answers = [await get(), await get(), await get()];
    expect(answers.map((response) => response.status)).toEqual([200, 200, 429]);
    expect(answers[0]?.headers.get('x-ratelimit-limit')).toBe('2');
    expect(answers[1]?.headers.get('x-ratelimit-remaining')).toBe('0');
    const limited = answers[2] as Response;
    expect(limited.headers.get('retry-after')).toMatch(/^[12]$/);
    expect(limited.headers.get('date')).not.toBeNull();
    expect((await limited.json()).message).toContain('2 requests per 2 s');
    // Once the window has reset (X-RateLimit-Reset is rounded up), the key has its budget again.
    const resetAt = Number(limited.headers.get('x-ratelimit-reset')) * 1000;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, resetAt + 50 - Date.now())));
    const again = await get();
    expect(again.status).toBe(200);
    expect(again.headers.get('x-ratelimit-remaining')).toBe('1');
  });

  it('refuses a body over --max-body with 413, and reports the requests --max-log dropped', async (context) => {
    const cli = run(['--port', '0', '--max-body', '64', '--max-log', '2'], context);
    const url = await waitForUrl(cli);
    const headers = { Authorization: 'Bearer test-api-key', 'Content-Type': 'application/json' };
    const body = JSON.stringify({ name: 'x'.repeat(100), categoryId: 1 });
    const refused = await fetch(`${url}/pets`, { method: 'POST', headers, body });
    expect(refused.status).toBe(413);
    expect(await refused.json()).toMatchObject({ code: 'payload_too_large', status: 413 });
    for (let i = 0; i < 4; i++) expect((await fetch(`${url}/pets`, { headers })).status).toBe(200);
    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toContain('Stopped.\nRequests kept in the log: 2, dropped: 3.\n');
  });

  it('acts like a strict service with --cors-headers: pages may neither send nor read other headers', async (context) => {
    const cli = run(['--port', '0', '--limit', '1', '--cors-headers', 'Authorization,Content-Type'], context);
    const url = await waitForUrl(cli);
    expect(cli.stdout()).toContain('CORS: strict, allowing and exposing only Authorization, Content-Type');
    const preflight = await fetch(`${url}/pets`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://localhost:5173',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization, traceparent',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type');
    const get = () => fetch(`${url}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
    await get();
    const limited = await get();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).not.toBeNull();
    expect(limited.headers.get('access-control-expose-headers')).toBe('Authorization, Content-Type');
  });

  it('exits 1 when the port is taken', async (context) => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    context.onTestFinished(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
    const address = blocker.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const cli = run(['--port', String(port)], context);
    expect(await cli.exited).toBe(1);
    expect(cli.stderr()).toContain(`cannot listen on 127.0.0.1:${port}`);
    expect(cli.stderr()).toContain('EADDRINUSE');
  });
});
