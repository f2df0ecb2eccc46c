/**
 * What the fake writes down (HAR, snapshots, near misses, the verify report) holds no credential in
 * any form, and never fails on one.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { format } from '@vitest/pretty-format';
import { describe, expect, it, onTestFinished } from 'vitest';
import {
  createFakePetStore,
  type FakePetStore,
  fakePetStoreSerializer,
  nearMisses,
} from '../../src/testing/index.js';
import { keyForms } from '../support/key-forms.js';

const KEY = 'sk_live/Key+9"x';
/** Tokens a request may carry that the store does not know: another scheme, a custom header, a cookie. */
const TOKEN = 'tok_other/Token+77';
const HEADER_KEY = 'hdr_key/Value+55';
const COOKIE = 'sess_abc/DEF+123';

const print = (value: unknown) => format(value, { plugins: [fakePetStoreSerializer] });

/** Whether `text` holds any form of any of `secrets`. */
function leaked(text: string, secrets: readonly string[]): string[] {
  return secrets.flatMap((secret) => keyForms(secret).filter((form) => text.includes(form)));
}

/** A deployment that answers with every form of every secret in its body, and sets a cookie. */
async function echoingDeployment(): Promise<string> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const body = [KEY, TOKEN, HEADER_KEY, COOKIE].flatMap(keyForms).join('\n');
      response.writeHead(200, {
        'Content-Type': 'text/plain',
        'Set-Cookie': `session=${COOKIE}; Path=/; HttpOnly`,
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

async function sendEveryForm(store: FakePetStore): Promise<void> {
  const forms = [KEY, TOKEN, HEADER_KEY, COOKIE].flatMap(keyForms);
  await store.fetch(
    `${store.baseUrl}/pets?api_key=${encodeURIComponent(KEY)}&q=${encodeURIComponent(TOKEN)}`,
    {
      headers: {
        Authorization: `Bearer ${KEY}`,
        'X-Api-Key': HEADER_KEY,
        Cookie: `session=${COOKIE}; theme=dark`,
      },
    },
  );
  await store.fetch(`${store.baseUrl}/pets`, {
    method: 'POST',
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'text/plain' },
    body: forms.join('\n'),
  });
  await store.fetch(`${store.baseUrl}/pets`, {
    method: 'POST',
    headers: { Authorization: KEY, 'Content-Type': 'application/json' },
    body: `{"name":"${keyForms(KEY)[6]}","categoryId":1}`,
  });
}

describe('HAR export', () => {
  it('never fails on an Authorization value, however short, and keeps every URL a URL', async () => {
    const store = createFakePetStore();
    for (const token of ['1', 'http', '/', '.', ':', 'v1']) {
      await store.fetch(`${store.baseUrl}/pets?limit=1`, { headers: { Authorization: `Bearer ${token}` } });
    }
    const har = store.toHAR();
    expect(har.log.entries).toHaveLength(6);
    for (const entry of har.log.entries) {
      expect(entry.request.url).toBe(`${store.baseUrl}/pets?limit=1`);
      expect(entry.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    }
    // Over HTTP too: the control API's export.
    const server = await store.listen();
    onTestFinished(() => server.close());
    const exported = await fetch(`${server.controlUrl}/requests.har`);
    expect(exported.status).toBe(200);
  });

  it('holds no form of the key or of any token, key header or cookie a request carried, recorded answers included', async () => {
    const store = createFakePetStore({ apiKeys: { [KEY]: 'free' }, upstream: await echoingDeployment() });
    await sendEveryForm(store);
    const text = JSON.stringify(store.toHAR());
    expect(leaked(text, [KEY, TOKEN, HEADER_KEY, COOKIE])).toEqual([]);
    const [first] = store.toHAR().log.entries;
    expect(first?.request.headers).toEqual(
      expect.arrayContaining([
        { name: 'x-api-key', value: '[REDACTED]' },
        { name: 'cookie', value: 'session=[REDACTED]; theme=[REDACTED]' },
      ]),
    );
    expect(first?.response.headers).toContainEqual({
      name: 'set-cookie',
      value: 'session=[REDACTED]; Path=/; HttpOnly',
    });
    expect(first?.request.queryString).toContainEqual({ name: 'api_key', value: '[REDACTED]' });
  });

  it('redacts a cookie the deployment set wherever it appears, though no request sent it back', async () => {
    const store = createFakePetStore({ upstream: await echoingDeployment() });
    await store.fetch(`${store.baseUrl}/pets`, { headers: { Authorization: `Bearer ${KEY}` } });
    expect(leaked(JSON.stringify(store.toHAR()), [KEY, COOKIE])).toEqual([]);
  });

  it('keeps cookies when asked, and still no key', async () => {
    const store = createFakePetStore({ apiKeys: { [KEY]: 'free' }, upstream: await echoingDeployment() });
    await sendEveryForm(store);
    const har = store.toHAR({ keepCookies: true });
    expect(har.log.entries[0]?.request.headers).toContainEqual({
      name: 'cookie',
      value: `session=${COOKIE}; theme=dark`,
    });
    expect(leaked(JSON.stringify(har), [KEY, TOKEN, HEADER_KEY])).toEqual([]);
  });
});

describe('the snapshot serializer and near misses', () => {
  it('print no credential in any form: an Authorization without a scheme, X-Api-Key, the query, the path, the body', async () => {
    const store = createFakePetStore({ apiKeys: { [KEY]: 'free' } });
    await sendEveryForm(store);
    await store.fetch(
      `${store.baseUrl}/pets/${encodeURIComponent(KEY)}?token=${encodeURIComponent(HEADER_KEY)}`,
      {
        headers: { Authorization: KEY, 'X-Api-Key': HEADER_KEY },
      },
    );
    const printed = print(store.requests);
    expect(leaked(printed, [KEY, TOKEN, HEADER_KEY, COOKIE])).toEqual([]);
    expect(printed).toContain('"authorization": "[redacted]"');
    expect(printed).toContain('"authorization": "Token [redacted]"');

    const misses = JSON.stringify(
      nearMisses(
        { path: '/pets/1', query: { api_key: 'x', token: 'y' }, headers: { 'X-Api-Key': 'z' } },
        store.requests,
        10,
      ),
    );
    expect(leaked(misses, [KEY, TOKEN, HEADER_KEY, COOKIE])).toEqual([]);
  });

  it('GET /__fake/verify reports near misses with no key in the query, the path or X-Api-Key', async () => {
    const store = createFakePetStore({ apiKeys: { [KEY]: 'free' } });
    const server = await store.listen();
    onTestFinished(() => server.close());
    const injected = await fetch(`${server.controlUrl}/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        match: { path: '/pets/{id}', query: { api_key: 'nope' }, headers: { 'X-Api-Key': 'nope' } },
        status: 503,
      }),
    });
    expect(injected.status).toBe(204);
    await fetch(`${server.url}/pets/${encodeURIComponent(KEY)}?api_key=${encodeURIComponent(KEY)}`, {
      headers: { 'X-Api-Key': KEY },
    });
    await fetch(`${server.url}/pets?key=${encodeURIComponent(KEY).toLowerCase()}`, {
      headers: { Authorization: `Bearer ${KEY}` },
    });
    const report = await (await fetch(`${server.controlUrl}/verify`)).text();
    expect(report).toContain('never fired');
    expect(leaked(report, [KEY])).toEqual([]);
    expect(() => store.verify()).toThrow();
    try {
      store.verify();
    } catch (error) {
      expect(leaked(String((error as Error).message), [KEY])).toEqual([]);
    }
  });
});
