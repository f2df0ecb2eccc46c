import { describe, expect, it } from 'vitest';
import { connectFakePetStore, createFakePetStore, type Har, samplePets } from '../../src/testing/index.js';
import { MAX_RECORDED_RESPONSE_BYTES } from '../../src/testing/store/request-log.js';
import { authed, postJson } from './support/transports.js';

const KEY = 'sk-live-har-secret-0123456789';
const WRONG_KEY = 'sk-wrong-har-secret-9876543210';

function storeWithKey() {
  return createFakePetStore({ apiKeys: { [KEY]: 'pro' }, pets: samplePets(2), requestIdSeed: 7 });
}

describe('store.toHAR()', () => {
  it('holds every request and its answer, bodies included, as HAR 1.2', async () => {
    const store = storeWithKey();
    await store.fetch(`${store.baseUrl}/pets?limit=1`, authed({}, KEY));
    await store.fetch(`${store.baseUrl}/pets`, postJson({ name: 'Bella', categoryId: 2 }, KEY));
    const har = store.toHAR();
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator.name).toMatch(/animal-store-sdk/);
    const [list, create] = har.log.entries;
    expect(list?.request).toMatchObject({
      method: 'GET',
      url: `${store.baseUrl}/pets?limit=1`,
      queryString: [{ name: 'limit', value: '1' }],
      bodySize: 0,
    });
    expect(list?.response.status).toBe(200);
    expect(list?.response.statusText).toBe('OK');
    expect(JSON.parse(list?.response.content.text ?? '')).toEqual(samplePets(2).slice(0, 1));
    expect(list?.response.headers).toContainEqual({
      name: 'x-request-id',
      value: store.requests[0]?.requestId,
    });
    expect(create?.request.postData).toEqual({
      mimeType: 'application/json',
      text: JSON.stringify({ name: 'Bella', categoryId: 2 }),
    });
    expect(create?.response.status).toBe(201);
    expect(JSON.parse(create?.response.content.text ?? '')).toMatchObject({ id: 3, name: 'Bella' });
    expect(create?.response.content.mimeType).toMatch(/^application\/json/);
    expect(Date.parse(list?.startedDateTime ?? '')).toBe(store.requests[0]?.receivedAt);
    expect(list?.time).toBeGreaterThanOrEqual(0);
  });

  it('redacts the key in headers and wherever else it appears, and any bearer token sent', async () => {
    const store = storeWithKey();
    await store.fetch(`${store.baseUrl}/pets?note=${KEY}`, authed({}, KEY));
    await store.fetch(`${store.baseUrl}/pets`, postJson({ name: KEY.slice(0, 30), categoryId: 1 }, KEY));
    await store.fetch(`${store.baseUrl}/pets`, authed({}, WRONG_KEY));
    const text = JSON.stringify(store.toHAR());
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 30));
    expect(text).not.toContain(WRONG_KEY);
    const [first, , wrong] = store.toHAR().log.entries;
    expect(first?.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    expect(first?.request.queryString).toEqual([{ name: 'note', value: '[REDACTED]' }]);
    expect(wrong?.response.status).toBe(401);
  });

  it('writes a request that got no answer with status 0, and a fault after the operation', async () => {
    const store = storeWithKey();
    store.injectFault({ afterOperation: 'lost-response' });
    await expect(
      store.fetch(`${store.baseUrl}/pets`, postJson({ name: 'Bella', categoryId: 2 }, KEY)),
    ).rejects.toThrow(TypeError);
    const [lost] = store.toHAR().log.entries;
    expect(lost?.response.status).toBe(0);
    expect(lost?.response.comment).toBe('No response: lost-response');
    expect(lost?._afterOperation).toBe('lost-response');
  });

  it('keeps response bodies up to the limit, and says when one was cut', async () => {
    expect(MAX_RECORDED_RESPONSE_BYTES).toBe(65_536);
    const store = createFakePetStore({ pets: samplePets(20), maxRecordedResponseBytes: 100 });
    const response = await store.fetch(`${store.baseUrl}/pets?limit=20`, authed());
    const full = await response.text();
    const [recorded] = store.requests;
    expect(recorded?.response?.body).toBe(full.slice(0, 100));
    expect(recorded?.response?.truncated).toBe(true);
    expect(store.toHAR().log.entries[0]?.response.content.comment).toMatch(/Cut at the request log/);
    expect(() => createFakePetStore({ maxRecordedResponseBytes: -1 })).toThrow(RangeError);
  });

  it('is served at GET /__fake/requests.har, for the root store and for a session', async () => {
    const store = storeWithKey();
    const server = await store.listen();
    try {
      await fetch(`${server.url}/pets`, authed({}, KEY));
      const response = await fetch(`${server.controlUrl}/requests.har`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const text = await response.text();
      expect(text).not.toContain(KEY);
      const har = JSON.parse(text) as Har;
      expect(har.log.entries).toHaveLength(1);
      expect(har.log.entries[0]?.request.url).toBe(`${server.url}/pets`);
      expect(har.log.entries[0]?.response.headers).toContainEqual({
        name: 'x-request-id',
        value: store.requests[0]?.requestId,
      });

      expect(await connectFakePetStore(server.url).toHAR()).toEqual(har);

      const session = (await (await fetch(`${server.controlUrl}/sessions`, { method: 'POST' })).json()) as {
        baseUrl: string;
        controlUrl: string;
      };
      await fetch(`${session.baseUrl}/pets/1`, authed({}, KEY));
      const sessionHar = (await (await fetch(`${session.controlUrl}/requests.har`)).json()) as Har;
      expect(sessionHar.log.entries.map((entry) => entry.request.url)).toEqual([`${session.baseUrl}/pets/1`]);
    } finally {
      await server.close();
    }
  });
});
