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
