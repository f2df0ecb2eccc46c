/**
 * A replayed or recorded answer that a browser runs (HTML) must not run at the fake's origin: a page
 * on another port that frames it must not read the request log (which holds the key) through it, and
 * such an answer cannot set the API's CORS or cookie headers. In Chromium, against the command as it
 * ships, in replay and in record mode.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import type { Har } from '../../src/testing/index.js';
import { listenOnLoopback, type PageServer, servePage } from '../bundle/support/page-server.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = 'sk_live_framed_0123456789';

/** The framed answer: it reads the request log from where it runs, and tells the page that framed it. */
const HTML = `<!doctype html><title>framed</title><script>
fetch('/__fake/requests').then((r) => r.text()).then(
  (text) => parent.postMessage('read ' + text, '*'),
  (error) => parent.postMessage('refused ' + error.name, '*'),
);
</script>`;

/** What the recorded answers claim for themselves: the API's CORS, credentials, a cookie. */
const CLAIMS = {
  'Access-Control-Allow-Origin': 'http://evil.test',
  'Access-Control-Allow-Credentials': 'true',
  'Set-Cookie': 'planted=1; Path=/',
};

let browser: Browser;
let dir: string;

beforeAll(async () => {
  await ensurePackageBuilt();
  browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
  dir = mkdtempSync(join(tmpdir(), 'animal-store-framed-'));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** What the framed answer told a page on another loopback port, which framed `url`. */
async function framedOutcome(url: string): Promise<string> {
  const script = `
    window.outcome = new Promise((resolve) => addEventListener('message', (event) => resolve(String(event.data))));
    const frame = document.createElement('iframe');
    frame.src = ${JSON.stringify(url)};
    document.body.append(frame);`;
  const page: PageServer = await servePage('Another site', script);
  const tab = await browser.newPage();
  try {
    await tab.goto(page.origin);
    return await tab.evaluate(() =>
      Promise.race([
        (window as unknown as { outcome: Promise<string> }).outcome,
        new Promise<string>((resolve) => setTimeout(() => resolve('no message'), 15_000)),
      ]),
    );
  } finally {
    await tab.close();
    await page.close();
  }
}

/** The key in the log, then the checks on the answers' headers and on the framed page. */
async function expectConfined(baseUrl: string): Promise<void> {
  const api = await fetch(`${baseUrl}/pets`, { headers: { Authorization: `Bearer ${KEY}` } });
  const framed = await framedOutcome(`${baseUrl}/page`);
  expect(framed).toBe('refused TypeError');
  expect(framed).not.toContain(KEY);

  expect(api.status).toBe(200);
  expect(api.headers.get('access-control-allow-origin')).toBe('*');
  expect(api.headers.get('access-control-allow-credentials')).toBeNull();
  expect(api.headers.get('set-cookie')).toBeNull();
  expect(api.headers.get('x-content-type-options')).toBe('nosniff');
}

function entry(path: string, withKey: boolean, contentType: string, text: string) {
  return {
    startedDateTime: '2026-11-22T12:00:00.000Z',
    time: 1,
    request: {
      method: 'GET',
      url: `http://127.0.0.1:4010/v1${path}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: withKey ? [{ name: 'authorization', value: 'Bearer [REDACTED]' }] : [],
      queryString: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      statusText: 'OK',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: [
        { name: 'content-type', value: contentType },
        ...Object.entries(CLAIMS).map(([name, value]) => ({ name, value })),
      ],
      content: { size: text.length, mimeType: contentType, text },
      redirectURL: '',
      headersSize: -1,
      bodySize: text.length,
    },
    cache: {},
    timings: { send: 0, wait: 1, receive: 0 },
  };
}

describe('an HTML answer framed by a page on another port', () => {
  it(
    'replayed: runs sandboxed, cannot read /__fake/requests, and sets no CORS or cookie header',
    async (context: TestContext) => {
      const file = join(dir, 'framed.har');
      const har = {
        log: {
          version: '1.2',
          creator: { name: 'test', version: '1' },
          entries: [entry('/pets', true, 'application/json', '[]'), entry('/page', false, 'text/html', HTML)],
        },
      } satisfies Har;
      writeFileSync(file, JSON.stringify(har));
      const cli = run(['--port', '0', '--key', KEY, '--replay', file], context);
      await expectConfined(await waitForUrl(cli));
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );

  it(
    'recorded: runs sandboxed, cannot read /__fake/requests with the real key, and sets no CORS or cookie header',
    async (context: TestContext) => {
      const upstream = await listenOnLoopback(
        createServer((request, response) => {
          const html = request.url?.startsWith('/v1/page') === true;
          response.writeHead(200, { 'Content-Type': html ? 'text/html' : 'application/json', ...CLAIMS });
          response.end(html ? HTML : '[]');
        }),
      );
      context.onTestFinished(() => upstream.close());
      const cli = run(
        ['--port', '0', '--record', join(dir, 'recorded.har'), '--upstream', `${upstream.origin}/v1`],
        context,
      );
      await expectConfined(await waitForUrl(cli));
    },
    PROCESS_TEST_TIMEOUT_MS * 2,
  );
});
