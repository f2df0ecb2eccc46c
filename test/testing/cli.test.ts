import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, type TestContext } from 'vitest';
import { CliUsageError, parseCliArgs, USAGE } from '../../src/testing/cli-args.js';

const CLI = fileURLToPath(new URL('../../src/testing/cli.ts', import.meta.url));

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
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
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
  const deadline = Date.now() + 10_000;
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
    expect(parseCliArgs(['--port=8080']).kind).toBe('serve');
    expect(parseCliArgs(['--plan', '100000/5000000'])).toMatchObject({
      plan: { perMinute: 100_000, perDay: 5_000_000 },
    });
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
    [['--host', ''], /--host must not be empty/],
    [['--max-body', '1e6'], /--max-body must be an integer/],
    [['--max-log', '-5'], /--max-log/],
    [['--request-timeout', '0'], /--request-timeout must be an integer from 1/],
    [['--verbose'], /Unknown option '--verbose'/],
    [['serve'], /positional argument/],
  ])('rejects %j', (args, message) => {
    expect(() => parseCliArgs(args)).toThrow(CliUsageError);
    expect(() => parseCliArgs(args)).toThrow(message);
  });
});

describe.concurrent('animal-store-fake-server', () => {
  it('prints the help and exits 0', async (context) => {
    const cli = run(['--help'], context);
    expect(await cli.exited).toBe(0);
    expect(cli.stdout()).toBe(USAGE);
    expect(USAGE).toMatch(/--port.*--host.*--key.*--plan.*--seed.*--help/s);
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
