import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFakePetStore, type FakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { authed, expectError, until } from './support/transports.js';

async function listen(store: FakePetStore = createFakePetStore()) {
  const server = await store.listen({ port: 0, hostname: '127.0.0.1' });
  onTestFinished(() => server.close());
  return server;
}

/** A GET through node:http with a keep-alive agent, reporting whether the socket was reused. */
function get(url: string, agent: Agent): Promise<{ response: IncomingMessage; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      { agent, headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ response, reused: req.reusedSocket }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('store.listen', () => {
  it('serves the base path on loopback and reports its URL', async () => {
    const server = await listen();
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/v1`);
    expect(server.port).toBeGreaterThan(0);
    expect((await fetch(`${server.url}/pets`, authed())).status).toBe(200);
  });

  it('serves the path of a custom base URL', async () => {
    const server = await listen(createFakePetStore({ baseUrl: 'https://api.example.com/animal-store/v1' }));
    expect(server.url).toBe(`http://127.0.0.1:${server.port}/animal-store/v1`);
    expect((await fetch(`${server.url}/pets`, authed())).status).toBe(200);
  });

  it('answers outside the base path with a 404 Error, without a key and without recording', async () => {
    const store = createFakePetStore();
    const server = await listen(store);
    const origin = `http://127.0.0.1:${server.port}`;
    for (const path of ['/', '/pets', '/v2/pets', '/v1x']) {
      await expectError(await fetch(`${origin}${path}`), 404, 'not_found');
    }
    expect(store.requests).toEqual([]);
  });

  it('shares the store state between servers', async () => {
    const store = createFakePetStore();
    const [a, b] = [await listen(store), await listen(store)];
    await fetch(`${a.url}/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    expect(await (await fetch(`${b.url}/pets/1`, authed())).json()).toMatchObject({ name: 'Rex' });
  });

  it('rejects when the port is taken', async () => {
    const server = await listen();
    await expect(createFakePetStore().listen({ port: server.port })).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
  });
});

describe('Date', () => {
  it("stamps every response with the store's clock, which Reset and Retry-After are relative to", async () => {
    // A store clock an hour and a half ahead of the host's.
    const ahead = 90 * 60_000;
    const server = await listen(
      createFakePetStore({
        apiKeys: { [DEFAULT_API_KEY]: { perMinute: 1, perDay: 100, window: 5_000 } },
        now: () => Date.now() + ahead,
      }),
    );
    const first = await fetch(`${server.url}/pets`, authed({ headers: { Origin: 'http://localhost:5173' } }));
    const limited = await fetch(`${server.url}/pets`, authed());
    const unauthorized = await fetch(`${server.url}/pets`);
    for (const response of [first, limited, unauthorized]) {
      const date = Date.parse(response.headers.get('date') ?? '');
      expect(Math.abs(date - (Date.now() + ahead))).toBeLessThan(30_000);
    }
    const date = Date.parse(first.headers.get('date') ?? '') / 1000;
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    // The window is 5 s; Date is truncated and Reset rounded up to whole seconds.
    expect(reset - date).toBeGreaterThanOrEqual(5);
    expect(reset - date).toBeLessThanOrEqual(7);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(5);
    expect((first.headers.get('access-control-expose-headers') ?? '').split(/,\s*/)).toContain('Date');
  });
});

describe('connections', () => {
  it('keeps connections alive between requests', async () => {
    const server = await listen();
    const agent = new Agent({ keepAlive: true });
    onTestFinished(() => agent.destroy());
    const first = await get(`${server.url}/pets`, agent);
    const second = await get(`${server.url}/pets`, agent);
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers.connection).toBe('keep-alive');
    expect([first.reused, second.reused]).toEqual([false, true]);
  });

  it('closes promptly with idle keep-alive connections open', async () => {
    const store = createFakePetStore();
    const server = await store.listen();
    const agent = new Agent({ keepAlive: true });
    onTestFinished(() => agent.destroy());
    await get(`${server.url}/pets`, agent);
    await fetch(`${server.url}/pets`, authed());
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    await expect(fetch(`${server.url}/pets`, authed())).rejects.toThrow(TypeError);
  });

  it('closes promptly when a request waits on an injected delay, failing that request', async () => {
    const store = createFakePetStore();
    const server = await store.listen();
    store.injectFault({ status: 503, delay: 60_000 });
    const pending = fetch(`${server.url}/pets`, authed()).catch((error: unknown) => error);
    await until(() => store.requests.length === 1);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(await pending).toBeInstanceOf(TypeError);
  });

  it('closes promptly after a client aborted a request', async () => {
    const store = createFakePetStore();
    const server = await store.listen();
    store.injectFault({ status: 503, delay: 60_000 });
    const controller = new AbortController();
    const pending = fetch(`${server.url}/pets`, authed({ signal: controller.signal })).catch(
      (error: unknown) => error,
    );
    await until(() => store.requests.length === 1);
    controller.abort();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect((await fetch(`${server.url}/pets`, authed())).status).toBe(200);
    const started = performance.now();
    await server.close();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
