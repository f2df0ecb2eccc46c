import { createServer } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { CliUsageError, internalErrorReport, parseCliArgs, USAGE } from '../../src/testing/cli/cli-args.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

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
      maxLogBytes: 64 * 1024 * 1024,
      requestTimeout: 30_000,
      control: {},
      chaos: undefined,
    });
  });

  it('reads every option', () => {
    expect(
      parseCliArgs([
        ...['-p', '0', '--host', '0.0.0.0', '--key', 'k1', '--plan', 'enterprise', '--seed', '30'],
        ...['--max-body', '2048', '--max-log', '5', '--max-log-bytes', '4096', '--request-timeout', '1500'],
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
      maxLogBytes: 4096,
      requestTimeout: 1500,
      control: {},
      chaos: undefined,
    });
    expect(
      parseCliArgs([
        ...['--control-token', 's3cret-token', '--max-sessions', '3', '--session-idle-timeout', '500'],
        ...['--chaos-seed', '42', '--chaos-rate', '0.25'],
      ]),
    ).toMatchObject({
      control: { token: 's3cret-token', maxSessions: 3, sessionIdleTimeout: 500 },
      chaos: { seed: 42, rate: 0.25 },
    });
    expect(parseCliArgs(['--no-control'])).toMatchObject({ control: false });
    expect(parseCliArgs(['--trusted-origins', 'http://localhost:5173, HTTPS://App.Example/'])).toMatchObject({
      control: { trustedOrigins: ['http://localhost:5173', 'https://app.example'] },
    });
    expect(parseCliArgs([], { PETSTORE_FAKE_CONTROL_TOKEN: 'from-env' })).toMatchObject({
      control: { token: 'from-env' },
    });
    expect(
      parseCliArgs(['--control-token', 'from-flag'], { PETSTORE_FAKE_CONTROL_TOKEN: 'from-env' }),
    ).toMatchObject({ control: { token: 'from-flag' } });
    expect(parseCliArgs(['--plan', 'pro', '--limit', '10', '--window', '3000'])).toMatchObject({
      plan: { perMinute: 10, perDay: 10_000, window: 3_000 },
    });
    expect(parseCliArgs(['--plan', '5/50', '--window', '500'])).toMatchObject({
      plan: { perMinute: 5, perDay: 50, window: 500 },
    });
    expect(parseCliArgs(['--port=8080']).kind).toBe('serve');
    expect(parseCliArgs(['--plan', '100000/5000000'])).toMatchObject({
      plan: { perMinute: 100_000, perDay: 5_000_000 },
    });
    expect(parseCliArgs(['--cors-headers', 'Authorization, Content-Type,,authorization'])).toMatchObject({
      corsHeaders: ['Authorization', 'Content-Type'],
    });
    expect(parseCliArgs(['--cors-headers', ''])).toMatchObject({ corsHeaders: [] });
    expect(parseCliArgs(['--proxy-key', 'route-key'])).toMatchObject({ proxyKey: 'route-key' });
    expect(parseCliArgs(['--record', 'out.har', '--upstream', 'https://api.example.com/v1/'])).toMatchObject({
      record: { file: 'out.har', upstream: 'https://api.example.com/v1', keepCookies: false },
      maxLogBytes: 1024 ** 3,
    });
    expect(
      parseCliArgs(['--record', 'out.har', '--upstream', 'https://api.example.com/v1', '--keep-cookies']),
    ).toMatchObject({ record: { keepCookies: true } });
    expect(parseCliArgs(['--replay', 'out.har'])).toMatchObject({ replay: 'out.har' });
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
    [['--proxy-key', 'route key'], /^--proxy-key must be non-empty without spaces$/],
    [['--limit', '0'], /--limit must be an integer from 1/],
    [['--limit', 'ten'], /--limit must be an integer/],
    [['--window', '0'], /--window must be an integer from 1 to 86400000, got "0"/],
    [['--record', 'out.har'], /^--record and --upstream go together: give both$/],
    [['--upstream', 'http://127.0.0.1:4010/v1'], /^--record and --upstream go together/],
    [['--record', 'out.har', '--upstream', 'http://127.0.0.1:4010/api'], /^--upstream: .*\/v1/],
    [
      ['--record', 'a.har', '--upstream', 'http://127.0.0.1:4010/v1', '--replay', 'b.har'],
      /^--record and --replay contradict each other$/,
    ],
    [['--replay', ''], /^--replay needs a file name$/],
    [['--window', '86400001'], /--window/],
    [['--host', ''], /--host must not be empty/],
    [['--max-body', '1e6'], /--max-body must be an integer/],
    [['--max-log', '-5'], /--max-log/],
    [['--max-log-bytes', '1.5'], /--max-log-bytes must be an integer/],
    [['--keep-cookies'], /^--keep-cookies goes with --record$/],
    [['--request-timeout', '0'], /--request-timeout must be an integer from 1/],
    [
      ['--cors-headers', 'Retry After'],
      /--cors-headers: corsHeaders must hold header names, got "Retry After"/,
    ],
    [['--verbose'], /Unknown option '--verbose'/],
    [['--no-control', '--control-token', 'abc'], /--no-control and --control-token contradict/],
    [['--no-control', '--trusted-origins', 'http://a.test'], /--no-control and --trusted-origins contradict/],
    [['--trusted-origins', '*'], /^--trusted-origins: control\.trustedOrigins cannot hold "\*"/],
    [['--trusted-origins', 'http://a.test/app'], /--trusted-origins: .*no path.*got "http:\/\/a\.test\/app"/],
    [['--control-token', 'has space'], /^--control-token must be printable ASCII without spaces$/],
    [['--max-sessions', '10001'], /--max-sessions must be an integer from 0 to 10000/],
    [['--session-idle-timeout', '0'], /--session-idle-timeout must be an integer from 1/],
    [['--chaos-seed', '1'], /--chaos-seed and --chaos-rate go together/],
    [['--chaos-rate', '0.5'], /--chaos-seed and --chaos-rate go together/],
    [['--chaos-seed', '1', '--chaos-rate', '1.5'], /--chaos-rate must be a number from 0 to 1, got "1.5"/],
    [['--chaos-seed', '1', '--chaos-rate', 'half'], /--chaos-rate must be a number from 0 to 1/],
    [
      ['--chaos-seed', '4294967296', '--chaos-rate', '0.5'],
      /--chaos-seed must be an integer from 0 to 4294967295/,
    ],
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
    expect(USAGE).toMatch(/--port.*--host.*--key.*--plan.*--limit.*--window.*--seed.*--help/s);
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

  it('stops cleanly on SIGTERM when its stdout is closed (a parent gone): no EPIPE crash', async (context) => {
    const cli = run(['--port', '0'], context);
    const url = await waitForUrl(cli);
    cli.child.stdout?.destroy();
    // The pipe's reading end is closed once the parent holds it no more.
    await new Promise((resolve) => setTimeout(resolve, 50));

    cli.child.kill('SIGTERM');
    expect(await cli.exited).toBe(0);
    expect(cli.stderr()).toBe('');
    await expect(fetch(`${url}/pets`)).rejects.toThrow(TypeError);
  });

  it('serves a custom window with --limit and --window: 429 and Retry-After until it resets', async (context) => {
    const cli = run(['--port', '0', '--limit', '2', '--window', '2000'], context);
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

  it("serves requests without a key with --proxy-key, on the key's plan, and a wrong key still gets 401", async (context) => {
    const cli = run(
      ['--port', '0', '--key', 'route-key', '--plan', 'pro', '--proxy-key', 'route-key'],
      context,
    );
    const url = await waitForUrl(cli);
    expect(cli.stdout()).toContain('Requests without a key: served with the key route-key');
    const keyless = await fetch(`${url}/pets`);
    expect(keyless.status).toBe(200);
    expect(keyless.headers.get('x-ratelimit-limit')).toBe('300');
    expect((await fetch(`${url}/pets`, { headers: { Authorization: 'Bearer wrong' } })).status).toBe(401);
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
