/**
 * Record mode's file, and --replay's refusal of a bad one, against the command as it ships: every
 * credential redacted whatever its header or form, cookies too; a header value of one character
 * does not stop the recording; the file is new, the owner's alone, written through no planted link;
 * and a large answer cannot fail the stop.
 */
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Har } from '../../src/testing/index.js';
import { listenOnLoopback } from '../bundle/support/page-server.js';
import { PROCESS_TEST_TIMEOUT_MS, type Run, run, waitForUrl } from '../support/cli-process.js';
import { keyForms } from '../support/key-forms.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = 'sk_live/recorded+Key"0123';
const TOKEN = 'tok_other/Scheme+4567';
const COOKIE = 'sess_recorded/ABC+890';
const MiB = 1024 * 1024;

let dir: string;

beforeAll(async () => {
  await ensurePackageBuilt();
  dir = mkdtempSync(join(tmpdir(), 'animal-store-recording-'));
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function deployment(context: TestContext, listener: RequestListener): Promise<string> {
  const server = await listenOnLoopback(createServer(listener));
  context.onTestFinished(() => server.close());
  return `${server.origin}/v1`;
}

/** Stops a command with SIGTERM, within a bound. */
async function stop(cli: Run): Promise<number | null> {
  cli.child.kill('SIGTERM');
  return Promise.race([
    cli.exited,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the command did not stop')), 60_000),
    ),
  ]);
}

function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.flatMap((secret) => keyForms(secret).filter((form) => text.includes(form)));
}

describe('record mode’s file', () => {
  it(
    'redacts every credential in every form, cookies too, survives one-character bearers, and is a new file only the owner reads',
    async (context: TestContext) => {
      const upstream = await deployment(context, (request, response) => {
        request.resume();
        request.on('end', () => {
          response.writeHead(200, {
            'Content-Type': 'application/json',
            'Set-Cookie': `session=${COOKIE}; Path=/; HttpOnly`,
          });
          response.end(JSON.stringify({ echoed: [KEY, TOKEN, COOKIE].flatMap(keyForms) }));
        });
      });
      const file = join(dir, 'pets.har');
      // A link planted where the old command wrote first, and one where the recording goes.
      const victim = join(dir, 'victim');
      const other = join(dir, 'other');
      writeFileSync(other, 'untouched');
      symlinkSync(victim, `${file}.partial`);
      symlinkSync(other, file);

      const cli = run(['--port', '0', '--key', KEY, '--record', file, '--upstream', upstream], context);
      const url = await waitForUrl(cli);
      for (const token of ['1', 'http', '/', '.']) {
        await (await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${token}` } })).arrayBuffer();
      }
      const sent = [
        fetch(`${url}/pets?api_key=${encodeURIComponent(KEY)}`, {
          headers: { 'X-Api-Key': KEY, Cookie: `session=${COOKIE}` },
        }),
        fetch(`${url}/pets`, {
          method: 'POST',
          headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'text/plain' },
          body: [KEY, TOKEN].flatMap(keyForms).join('\n'),
        }),
        fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${KEY}` } }),
      ];
      for (const answer of await Promise.all(sent)) await answer.arrayBuffer();
      expect(await stop(cli)).toBe(0);
      expect(cli.stderr()).toBe('');

      expect(lstatSync(file).isFile()).toBe(true);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(existsSync(victim)).toBe(false);
      expect(readFileSync(other, 'utf8')).toBe('untouched');
      const text = readFileSync(file, 'utf8');
      const har = JSON.parse(text) as Har;
      expect(har.log.entries).toHaveLength(7);
      expect(leaked(text, [KEY, TOKEN, COOKIE])).toEqual([]);
      expect(text).toContain('session=[REDACTED]; Path=/; HttpOnly');
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it(
    'keeps cookies with --keep-cookies',
    async (context: TestContext) => {
      const upstream = await deployment(context, (request, response) => {
        request.resume();
        response.writeHead(200, { 'Content-Type': 'application/json', 'Set-Cookie': `session=${COOKIE}` });
        response.end('[]');
      });
      const file = join(dir, 'cookies.har');
      const cli = run(['--port', '0', '--record', file, '--upstream', upstream, '--keep-cookies'], context);
      const url = await waitForUrl(cli);
      await (await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${KEY}` } })).arrayBuffer();
      expect(await stop(cli)).toBe(0);
      const text = readFileSync(file, 'utf8');
      expect(text).toContain(`session=${COOKIE}`);
      expect(leaked(text, [KEY])).toEqual([]);
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it(
    'a 90 KB gzip answer inflating to 90 MiB is recorded, and the stop does not fail',
    async (context: TestContext) => {
      const inflated = 90 * MiB;
      const zipped = gzipSync(Buffer.alloc(inflated));
      const upstream = await deployment(context, (request, response) => {
        request.resume();
        response.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Encoding': 'gzip' });
        response.end(zipped);
      });
      const file = join(dir, 'large.har');
      context.onTestFinished(() => rmSync(file, { force: true }));
      const cli = run(['--port', '0', '--record', file, '--upstream', upstream], context);
      const url = await waitForUrl(cli);
      const answer = await fetch(`${url}/pets`, { headers: { Authorization: `Bearer ${KEY}` } });
      expect((await answer.arrayBuffer()).byteLength).toBe(inflated);
      expect(await stop(cli)).toBe(0);
      expect(cli.stdout()).toContain(`Recorded 1 requests to ${file}.`);
      // Each NUL byte is written as \u0000: six times the answer.
      expect(statSync(file).size).toBeGreaterThan(6 * inflated);
    },
    PROCESS_TEST_TIMEOUT_MS * 4,
  );
});

describe('--replay with a bad file', () => {
  const recording = (text: string) =>
    JSON.stringify({
      log: {
        version: '1.2',
        creator: { name: 'test', version: '1' },
        entries: [
          {
            request: { method: 'GET', url: 'http://127.0.0.1:4010/v1/pets', headers: [] },
            response: { status: 200, headers: [], content: { text, encoding: 'base64' } },
          },
        ],
      },
    });

  it.for<[string, string, RegExp]>([
    [
      'bad base64',
      recording('not base64!'),
      /^animal-store-fake-server: cannot replay .*bad\.har: .*not base64\n$/,
    ],
    ['bad JSON', '{"log": ', /^animal-store-fake-server: cannot replay .*bad\.har: not JSON: .*\n$/],
    ['not a HAR', '{"log": {}}', /^animal-store-fake-server: cannot replay .*bad\.har: .*log\.entries.*\n$/],
  ])(
    'refuses %s with one line and exit code 2',
    { timeout: PROCESS_TEST_TIMEOUT_MS },
    async ([, content, message], context) => {
      const file = join(dir, 'bad.har');
      writeFileSync(file, content);
      const cli = run(['--port', '0', '--replay', file], context);
      expect(await cli.exited).toBe(2);
      expect(cli.stderr()).toMatch(message);
      expect(cli.stderr()).not.toMatch(/\n\s+at /);
    },
  );
});
