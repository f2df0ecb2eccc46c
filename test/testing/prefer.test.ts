import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_DELAY_MS } from '../../src/testing/disruptions/delay-range.js';
import { createFakePetStore } from '../../src/testing/index.js';
import {
  authed,
  expectError,
  postJson,
  preflight,
  rateLimit,
  transports,
  until,
} from './support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

const prefer = (value: string, init: RequestInit = {}) => {
  const headers = new Headers(init.headers);
  headers.set('Prefer', value);
  return authed({ ...init, headers });
};

describe.each(transports)('Prefer over $name', (transport) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers code=NNN with that status and the Error shape, using no quota, and records it', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, authed());

    const coded = await fetch(`${baseUrl}/pets`, prefer('code=503'));
    await expectError(coded, 503, 'service_unavailable');
    expect(rateLimit(coded)).toEqual({ limit: 60, remaining: 59, reset: T0 / 1000 + 60 });
    await expectError(await fetch(`${baseUrl}/pets/1`, prefer('code=418')), 418, 'http_418');
    // Even a request the service would refuse (no key, a bad body) gets the status asked for.
    await expectError(
      await fetch(`${baseUrl}/pets`, { headers: { Prefer: 'code=502' } }),
      502,
      'bad_gateway',
    );

    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed())).remaining).toBe(58);
    expect(store.requests.map((request) => request.status)).toEqual([200, 503, 418, 502, 200]);
    expect(store.requests[1]?.headers.prefer).toBe('code=503');
  });

  it('gives a 429 the headers of a gateway asking to retry in a second', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    const response = await fetch(`${baseUrl}/pets`, prefer('code=429'));
    await expectError(response, 429, 'rate_limited');
    expect(response.headers.get('retry-after')).toBe('1');
    expect(rateLimit(response)).toEqual({ limit: 60, remaining: 0, reset: T0 / 1000 + 1 });
  });

  it('comes before an injected fault, which stays for the next request', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 500 });
    await expectError(await fetch(`${baseUrl}/pets`, prefer('code=504')), 504, 'gateway_timeout');
    await expectError(await fetch(`${baseUrl}/pets`, authed()), 500, 'internal_error');
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
  });

  it('holds the answer, normal or coded, for delay=MS on the fake clock', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

    for (const [index, [value, status]] of (
      [
        ['delay=2000', 201],
        ['code=503, delay=2000', 503],
        ['delay=2000; ignored=param, code=500', 500],
      ] as const
    ).entries()) {
      let settled = false;
      const create = postJson({ name: 'Rex', categoryId: 1 });
      const pending = fetch(`${baseUrl}/pets`, prefer(value, create)).then((response) => {
        settled = true;
        return response;
      });
      await until(() => store.requests.length === index + 1);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => settled);
      expect((await pending).status).toBe(status);
    }
    expect(store.pets).toHaveLength(1);
  });

  it.each([
    ['code=200', /code=200 cannot be honoured: give a status from 400 to 599/],
    ['code=600', /code=600/],
    ['code=abc', /code=abc/],
    ['code', /code= cannot be honoured/],
    ['delay=-5', /delay=-5 cannot be honoured: give whole milliseconds from 0 to 300000/],
    [`delay=${MAX_DELAY_MS + 1}`, /delay=300001/],
    ['delay=1.5', /delay=1.5/],
  ])('answers Prefer: %s with a 400 naming it', async (value, message) => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    const body = await expectError(await fetch(`${baseUrl}/pets`, prefer(value)), 400, 'invalid_preference');
    expect(body.message).toMatch(message);
    expect(store.requests).toMatchObject([{ status: 400 }]);
  });

  it('ignores other preferences and repeats, as RFC 7240 asks', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    expect((await fetch(`${baseUrl}/pets`, prefer('return=minimal, respond-async'))).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets`, prefer('CODE="503", code=500'))).status).toBe(503);
  });
});

describe('Prefer in a browser', () => {
  it('passes the HTTP server’s CORS preflight', async () => {
    const server = await createFakePetStore().listen();
    try {
      const answered = await preflight(`${server.url}/pets`, 'GET', 'authorization, prefer');
      expect(answered.status).toBe(204);
      expect(answered.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('prefer');
    } finally {
      await server.close();
    }
  });
});
