/**
 * Each attempt on the fake an attacker, or a careless test, would try, against the command as it
 * ships (dist/testing/cli.js): a web page driving the control API (by fetch from Node with its
 * Origin, and from a real page in Chromium on another loopback port), a Host another site's DNS name
 * would carry, ids at Number.MAX_SAFE_INTEGER and delays no timer holds.
 */
import { request } from 'node:http';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PageServer, servePage } from '../bundle/support/page-server.js';
import { CHROMIUM_ARGS, chromiumPath } from '../support/chromium.js';
import { type Run, run, waitForUrl } from '../support/cli-process.js';
import { ensurePackageBuilt } from '../support/package-build.js';

const KEY = 'sk_live_attempts_0123456789';
/** A page on another loopback port: what any site open in the machine's browser could be. */
const PAGE_ORIGIN = 'http://127.0.0.1:5999';
const MAX = Number.MAX_SAFE_INTEGER;

const finish: Array<() => void> = [];
let cli: Run;
let baseUrl: string;
let origin: string;
let control: string;

const auth = { Authorization: `Bearer ${KEY}` };
const json = { 'Content-Type': 'application/json' };

beforeAll(async () => {
  await ensurePackageBuilt();
  cli = run(['--port', '0', '--key', KEY, '--seed', '2'], {
    onTestFinished: (hook) => finish.push(hook as () => void),
  });
  baseUrl = await waitForUrl(cli);
  origin = new URL(baseUrl).origin;
  control = `${origin}/__fake`;
}, 120_000);

afterAll(() => {
  for (const hook of finish) hook();
});

/** An Error body: its status, code and message. */
async function errorOf(response: Response) {
  const body = (await response.json()) as { code: string; message: string; status: number };
  expect(body.status).toBe(response.status);
  return { status: response.status, code: body.code, message: body.message };
}

async function startOver(): Promise<void> {
  expect((await fetch(`${control}/reset`, { method: 'POST' })).status).toBe(204);
}

/** Whether the store answers the API normally: no fault was injected, nothing was replaced. */
async function servesNormally(): Promise<void> {
  const answer = await fetch(`${baseUrl}/pets`, { headers: auth });
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as unknown[]).length).toBe(2);
}

describe('a web page driving the control API', () => {
  it('a cross-origin preflight is refused 403, with no Access-Control-Allow-Origin', async () => {
    const answer = await fetch(`${control}/faults`, {
      method: 'OPTIONS',
      headers: {
        Origin: PAGE_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(await errorOf(answer)).toMatchObject({ status: 403, code: 'untrusted_origin' });
  });

  it('a text/plain POST to /__fake/faults, the request a page sends without a preflight, injects nothing', async () => {
    await startOver();
    const fromPage = await fetch(`${control}/faults`, {
      method: 'POST',
      headers: { Origin: PAGE_ORIGIN, 'Content-Type': 'text/plain' },
      body: '{"status":503}',
    });
    expect(await errorOf(fromPage)).toMatchObject({ status: 403, code: 'untrusted_origin' });
    // Without an Origin too: the control API takes no body a page could send without a preflight.
    const plain = await fetch(`${control}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: '{"status":503}',
    });
    const refused = await errorOf(plain);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_content_type' });
    expect(refused.message).toContain('Content-Type: application/json');
    await servesNormally();
  });

  it('reading /__fake/requests with an Origin is refused: the keys apps sent stay in the log, for tests only', async () => {
    await startOver();
    await servesNormally();
    const fromPage = await fetch(`${control}/requests`, { headers: { Origin: PAGE_ORIGIN } });
    const refused = await errorOf(fromPage);
    expect(refused).toMatchObject({ status: 403, code: 'untrusted_origin' });
    expect(refused.message).toContain(`--trusted-origins ${PAGE_ORIGIN}`);
    expect(fromPage.headers.get('access-control-allow-origin')).toBeNull();
    // A test, which sends no Origin, reads the key as the app sent it.
    const log = (await (await fetch(`${control}/requests`)).json()) as Array<{
      headers: Record<string, string>;
    }>;
    expect(log.map((entry) => entry.headers.authorization)).toEqual([`Bearer ${KEY}`]);
  });

  it('a Host another site’s DNS name would carry is refused 403 (DNS rebinding)', async () => {
    const port = new URL(origin).port;
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      request(`${control}/requests`, { headers: { Host: `rebound.attacker.example:${port}` } }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      })
        .on('error', reject)
        .end();
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'untrusted_host', status: 403 });
    expect(answer.body).not.toContain(KEY);
  });

  it('a page in Chromium on another loopback port can use the API, and cannot read or drive the control API', async () => {
    let browser: Browser | undefined;
    let page: PageServer | undefined;
    try {
      await startOver();
      page = await servePage('Another site', '');
      browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
      const tab = await browser.newPage();
      await tab.goto(page.origin);
      const seen = await tab.evaluate(
        async ({ baseUrl, control, key }) => {
          const outcome = async (attempt: Promise<Response>) => {
            try {
              const response = await attempt;
              return response.type === 'opaque' ? 'opaque' : `${response.status} ${await response.text()}`;
            } catch (error) {
              return (error as Error).name;
            }
          };
          return {
            api: await outcome(fetch(`${baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } })),
            readLog: await outcome(fetch(`${control}/requests`)),
            replacePets: await outcome(
              fetch(`${control}/pets`, {
                method: 'PUT',
                headers: { 'Content-Type': 'application/json' },
                body: '[]',
              }),
            ),
            // The requests a page sends with no preflight; their answers are opaque to it, so
            // only the store's state tells whether they did anything.
            textFault: await outcome(
              fetch(`${control}/faults`, { method: 'POST', mode: 'no-cors', body: '{"status":503}' }),
            ),
            reset: await outcome(fetch(`${control}/reset`, { method: 'POST', mode: 'no-cors' })),
          };
        },
        { baseUrl, control, key: KEY },
      );
      expect(seen).toMatchObject({
        api: expect.stringMatching(/^200 \[/),
        readLog: 'TypeError',
        replacePets: 'TypeError',
        textFault: 'opaque',
        reset: 'opaque',
      });
      // No fault, the pets kept, and the log not reset: it holds the page's call, then this one.
      await servesNormally();
      const log = (await (await fetch(`${control}/requests`)).json()) as Array<{
        headers: Record<string, string>;
      }>;
      expect(log.map((entry) => entry.headers.origin)).toEqual([page.origin, undefined]);
    } finally {
      await browser?.close();
      await page?.close();
    }
  }, 60_000);
});

describe('the fake’s numbers', () => {
  it('ids at Number.MAX_SAFE_INTEGER: the next create is a 507, twice, and nothing is added or replaced', async () => {
    await startOver();
    const seeded = await fetch(`${control}/pets`, {
      method: 'PUT',
      headers: json,
      body: JSON.stringify([{ id: MAX, name: 'Max', categoryId: 1 }]),
    });
    expect(seeded.status).toBe(200);
    for (const name of ['A', 'B']) {
      const created = await fetch(`${baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, ...json },
        body: JSON.stringify({ name, categoryId: 1 }),
      });
      const refused = await errorOf(created);
      expect(refused).toMatchObject({ status: 507, code: 'ids_exhausted' });
      expect(refused.message).toContain(String(MAX));
    }
    expect(await (await fetch(`${control}/pets`)).json()).toEqual([{ id: MAX, name: 'Max', categoryId: 1 }]);
    // Beyond it, seeding is refused: JSON would round the id to another.
    const beyond = await fetch(`${control}/pets`, {
      method: 'PUT',
      headers: json,
      body: '[{"id":9007199254740992,"name":"Big","categoryId":1}]',
    });
    expect(await errorOf(beyond)).toMatchObject({ status: 400, code: 'invalid_body' });
  });

  it.each([
    ['a fault’s delay of 1e12', '/faults', { delay: 1e12 }, 'injectFault: delay'],
    ['a fault’s delay of 2^31', '/faults', { delay: 2 ** 31 }, 'injectFault: delay'],
    [
      'chaos’s delay.max of 1e12',
      '/chaos',
      { seed: 1, rate: 0, delay: { rate: 1, max: 1e12 } },
      'injectChaos: delay.max',
    ],
  ])('%s is a 400 that says the range, and no timer is set', async (_name, path, body, field) => {
    await startOver();
    const answer = await fetch(`${control}${path}`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify(body),
    });
    const refused = await errorOf(answer);
    expect(refused).toMatchObject({ status: 400, code: 'invalid_body' });
    expect(refused.message).toContain(`${field} must be whole milliseconds from 0 to 300000`);
    await servesNormally();
    expect(cli.stderr()).not.toContain('TimeoutOverflowWarning');
  });
});
