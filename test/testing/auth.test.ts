import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed, expectError, postJson, rateLimit, transports } from './support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

describe.each(transports)('authentication over $name', (transport) => {
  const operations: Array<[string, string, RequestInit]> = [
    ['listPets', '/pets', {}],
    [
      'createPet',
      '/pets',
      {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"Rex","categoryId":1}',
      },
    ],
    ['getPet', '/pets/1', {}],
    ['an unknown route', '/store/orders', {}],
  ];

  it.each(operations)('answers %s without a key with 401', async (_name, path, init) => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    const response = await fetch(`${baseUrl}${path}`, init);
    const body = await expectError(response, 401, 'unauthorized');
    expect(body.message).toMatch(/Bearer/);
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="animal-store"');
    expect(store.pets).toHaveLength(1);
  });

  it.each([
    ['an unknown key', 'Bearer not-a-key', 'error="invalid_token"'],
    ['another scheme', 'Basic dGVzdC1hcGkta2V5Og==', 'error="invalid_request"'],
    ['a bare key', 'test-api-key', 'error="invalid_request"'],
    ['an empty bearer token', 'Bearer ', 'error="invalid_request"'],
  ])('answers %s with 401', async (_name, authorization, challenge) => {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore());
    const response = await fetch(`${baseUrl}/pets`, { headers: { Authorization: authorization } });
    await expectError(response, 401, 'unauthorized');
    expect(response.headers.get('www-authenticate')).toContain(challenge);
  });

  it('accepts a known key, with the scheme in any case', async () => {
    const store = createFakePetStore({ apiKeys: { 'key-a': 'free', 'key-b': 'pro' } });
    const { baseUrl, fetch } = await transport.serve(store);
    expect((await fetch(`${baseUrl}/pets`, authed({}, 'key-a'))).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'bearer key-b' } })).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets`, authed({}, 'test-api-key'))).status).toBe(401);
  });

  it('creates nothing for a request with a bad key', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    await expectError(
      await fetch(`${baseUrl}/pets`, postJson({ name: 'Rex', categoryId: 1 }, 'wrong')),
      401,
      'unauthorized',
    );
    expect(store.pets).toEqual([]);
  });

  it('gives a 401 the Free minute window, untouched, and counts it against no key', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    for (let i = 0; i < 3; i += 1) {
      const response = await fetch(`${baseUrl}/pets`, authed({}, 'wrong'));
      expect(response.status).toBe(401);
      expect(rateLimit(response)).toEqual({ limit: 60, remaining: 60, reset: T0 / 1000 + 60 });
    }
    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed())).remaining).toBe(59);
  });
});

describe.each(transports)('proxyKey over $name', (transport) => {
  it('serves a request without Authorization as the proxy key, with its plan and its limits', async () => {
    const store = createFakePetStore({
      now: () => T0,
      apiKeys: { 'route-key': { perMinute: 2, perDay: 100 }, other: 'pro' },
      proxyKey: 'route-key',
    });
    const { baseUrl, fetch } = await transport.serve(store);
    const first = await fetch(`${baseUrl}/pets`);
    expect(first.status).toBe(200);
    expect(rateLimit(first)).toEqual({ limit: 2, remaining: 1, reset: T0 / 1000 + 60 });
    // The key's own requests and the keyless ones share one budget: they are the same key.
    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed({}, 'route-key'))).remaining).toBe(0);
    await expectError(await fetch(`${baseUrl}/pets`), 429, 'rate_limited');
    expect((await fetch(`${baseUrl}/pets`, authed({}, 'other'))).status).toBe(200);
    const post = {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    };
    await expectError(await fetch(`${baseUrl}/pets`, post), 429, 'rate_limited');
    expect(store.pets).toEqual([]);
  });

  it('still answers a wrong key, or another scheme, with 401', async () => {
    const store = createFakePetStore({ proxyKey: 'test-api-key' });
    const { baseUrl, fetch } = await transport.serve(store);
    await expectError(await fetch(`${baseUrl}/pets`, authed({}, 'wrong')), 401, 'unauthorized');
    await expectError(
      await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Basic dGVzdA==' } }),
      401,
      'unauthorized',
    );
    expect((await fetch(`${baseUrl}/pets`)).status).toBe(200);
  });

  it('adds a proxy key that apiKeys lacks on the Free plan, beside the keys given', async () => {
    const store = createFakePetStore({ proxyKey: 'route-key' });
    const { baseUrl, fetch } = await transport.serve(store);
    const created = await fetch(`${baseUrl}/pets`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"name":"Rex","categoryId":1}',
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-ratelimit-limit')).toBe('60');
    expect((await fetch(`${baseUrl}/pets`, authed({}, 'route-key'))).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
    expect(store.pets).toHaveLength(1);
  });
});

describe('proxyKey, the option', () => {
  it.each([
    ['an empty string', ''],
    ['a key with a space', 'route key'],
    ['a number', 42],
  ])('refuses %s with a TypeError that does not repeat it', (_name, proxyKey) => {
    const create = () => createFakePetStore({ proxyKey: proxyKey as string });
    expect(create).toThrow(TypeError);
    expect(create).toThrow('proxyKey must be a non-empty string without spaces');
  });

  it('carries over to the sessions of the HTTP server', async () => {
    const store = createFakePetStore({ proxyKey: 'route-key' });
    const server = await store.listen();
    try {
      const session = (await (await fetch(`${server.controlUrl}/sessions`, { method: 'POST' })).json()) as {
        baseUrl: string;
      };
      expect((await fetch(`${session.baseUrl}/pets`)).status).toBe(200);
      expect((await fetch(`${session.baseUrl}/pets`, authed({}, 'wrong'))).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
