import { describe, expect, it, onTestFinished } from 'vitest';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { authed, expectError, postJson } from './support/transports.js';

const KEY = 'sk-upstream-secret-0123456789';

async function deployment() {
  const store = createFakePetStore({ apiKeys: { [KEY]: 'pro' }, pets: samplePets(2) });
  const server = await store.listen();
  onTestFinished(() => server.close());
  return { store, url: server.url };
}

describe('record mode in process (upstream)', () => {
  it('forwards each request as sent and answers with what the deployment answered', async () => {
    const real = await deployment();
    // The recorder knows nothing of the key: the deployment decides.
    const recorder = createFakePetStore({ upstream: real.url });
    const listed = await recorder.fetch(`${recorder.baseUrl}/pets?limit=1`, authed({}, KEY));
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual(samplePets(1));
    const created = await recorder.fetch(
      `${recorder.baseUrl}/pets`,
      postJson({ name: 'Bella', categoryId: 2 }, KEY),
    );
    expect(created.status).toBe(201);
    expect(real.store.pets).toHaveLength(3);
    expect(real.store.requests.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /pets',
      'POST /pets',
    ]);
    expect(real.store.requests[1]?.headers).toMatchObject({
      authorization: `Bearer ${KEY}`,
      'content-type': 'application/json',
    });
    // The deployment's own request id and rate-limit headers come back, and are recorded.
    expect(listed.headers.get('x-request-id')).toBe(real.store.requests[0]?.requestId);
    expect(recorder.requests[0]?.response?.headers['x-ratelimit-limit']).toBe('300');
    const har = JSON.stringify(recorder.toHAR());
    expect(har).not.toContain(KEY);
    expect(recorder.toHAR().log.entries).toHaveLength(2);
  });

  it('answers 502 upstream_unreachable when the deployment does not answer', async () => {
    const closed = createFakePetStore();
    const server = await closed.listen();
    await server.close();
    const recorder = createFakePetStore({ upstream: server.url });
    const response = await recorder.fetch(`${recorder.baseUrl}/pets`, authed({}, KEY));
    const body = await expectError(response, 502, 'upstream_unreachable');
    expect(body.message).toMatch(new RegExp(`^The upstream ${server.url} did not answer GET /pets: `));
    expect(body.message).not.toContain(KEY);
  });

  it('refuses an upstream that is not a base URL', () => {
    expect(() => createFakePetStore({ upstream: 'http://127.0.0.1:4010/api' })).toThrow(/^upstream: .*\/v1/);
  });
});
