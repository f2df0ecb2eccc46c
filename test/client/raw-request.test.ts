import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod';
import {
  APIConnectionError,
  BadRequestError,
  type Fetch,
  InternalServerError,
  NotFoundError,
  PetStoreClient,
  RateLimitError,
  RequestValidationError,
  ResponseValidationError,
} from '../../src/index.js';
import { settle, useFakeClock } from '../support/fake-clock.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

const OrderSchema = z.object({ id: z.number(), petId: z.number(), quantity: z.number() });
const ORDERS = [{ id: 7, petId: 1, quantity: 2 }];

/** The fake store, with `GET /store/orders` answered by the test itself, as a test of an app would. */
function withOrders(storeFetch: Fetch, seen: Request[] = []): Fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    seen.push(request.clone());
    if (new URL(request.url).pathname === '/v1/store/orders' && request.method === 'GET') {
      return Response.json(ORDERS, {
        headers: {
          'x-ratelimit-limit': '60',
          'x-ratelimit-remaining': '59',
          'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
        },
      });
    }
    return storeFetch(request);
  };
}

beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(Date.UTC(2026, 10, 22, 12, 0, 0));
});
afterEach(() => {
  vi.useRealTimers();
});

describe('client.request', () => {
  it('leaves an unmodelled path to the fake store, which answers 404', async () => {
    const { client, store } = setup();
    const error = await client.request({ method: 'GET', path: '/store/orders' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(store.requests).toMatchObject([{ method: 'GET', path: '/store/orders' }]);
  });

  it('sends the bearer token and the query, and resolves with the JSON as unknown', async () => {
    const seen: Request[] = [];
    const { store } = setup();
    const client = new PetStoreClient({
      apiKey: API_KEY,
      baseUrl: BASE_URL,
      fetch: withOrders(store.fetch, seen),
    });
    const orders: unknown = await client.request({
      method: 'GET',
      path: '/store/orders',
      query: { limit: 10, status: ['placed', 'approved'], skip: undefined, flag: true },
    });
    expect(orders).toEqual(ORDERS);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.url).toBe(`${BASE_URL}/store/orders?limit=10&status=placed&status=approved&flag=true`);
    expect(seen[0]?.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  });

  it('parses and types the body with a schema, and reports a mismatch with ResponseValidationError', async () => {
    const { store } = setup();
    const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch: withOrders(store.fetch) });
    const orders = await client.request({
      method: 'GET',
      path: 'store/orders',
      schema: z.array(OrderSchema),
    });
    const quantity: number | undefined = orders[0]?.quantity;
    expect(quantity).toBe(2);
    const error = await client
      .request({ method: 'GET', path: '/store/orders', schema: z.array(z.string()) })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual(ORDERS);
    expect((error as ResponseValidationError).text).toBe(JSON.stringify(ORDERS));
  });

  it('resolves with the text of a non-JSON body, and undefined without a body', async () => {
    const { client, store } = setup();
    store.injectFault({ match: { path: '/store/ping' }, status: 200, body: 'pong' });
    store.injectFault({ match: { path: '/store/orders/7' }, status: 204, body: '' });
    expect(await client.request({ method: 'GET', path: '/store/ping' })).toBe('pong');
    expect(await client.request({ method: 'DELETE', path: '/store/orders/7' })).toBeUndefined();
  });

  it('creates through the modelled endpoint with a JSON body, and gives the response to withResponse()', async () => {
    const { client, store } = setup();
    const { data, response, rateLimit } = await client
      .request({ method: 'POST', path: '/pets', body: { name: 'Rex', categoryId: 1 } })
      .withResponse();
    expect(data).toMatchObject({ id: 1, name: 'Rex' });
    expect(response.status).toBe(201);
    expect(rateLimit?.remaining).toBe(299);
    expect(client.rateLimit?.remaining).toBe(299);
    expect(store.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('maps error statuses to the error classes', async () => {
    const { client } = setup();
    const error = await client
      .request({ method: 'POST', path: '/pets', body: { name: 'Rex' } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
  });

  it('retries idempotent methods after a 5xx, and no method but after a 429 otherwise', async () => {
    for (const method of ['GET', 'PUT', 'DELETE', 'HEAD', 'OPTIONS'] as const) {
      const { client, store } = setup();
      store.injectFault({ status: 503 });
      store.injectFault({ status: 200, body: '{}', headers: { 'content-type': 'application/json' } });
      const { error } = await settle(client.request({ method, path: '/store/orders' }));
      expect(error, method).toBeUndefined();
      expect(store.requests, method).toHaveLength(2);
    }
    for (const method of ['POST', 'PATCH'] as const) {
      const { client, store } = setup();
      store.injectFault({ status: 503 });
      const { error } = await settle(client.request({ method, path: '/store/orders', body: {} }));
      expect(error, method).toBeInstanceOf(InternalServerError);
      expect(store.requests, method).toHaveLength(1);

      store.reset();
      store.injectFault({ status: 429, headers: { 'retry-after': '1' } });
      store.injectFault({ status: 201, body: '{}', headers: { 'content-type': 'application/json' } });
      const retried = await settle(client.request({ method, path: '/store/orders', body: {} }));
      expect(retried.error, method).toBeUndefined();
      expect(store.requests, method).toHaveLength(2);
    }
  });

  it('does not repeat a POST after a lost connection, but repeats a DELETE', async () => {
    const { client, store } = setup();
    store.injectFault({ networkError: true });
    const post = await settle(client.request({ method: 'POST', path: '/store/orders', body: {} }));
    expect(post.error).toBeInstanceOf(APIConnectionError);
    expect(store.requests).toHaveLength(1);
    store.reset();
    store.injectFault({ networkError: true });
    const del = await settle(client.request({ method: 'DELETE', path: '/store/orders/1' }));
    expect(del.error).toBeInstanceOf(NotFoundError);
    expect(store.requests).toHaveLength(2);
  });

  it('shares the cooldown after a 429 with the operations', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({ status: 429, headers: { 'retry-after': '30' } });
    const { error } = await settle(client.request({ method: 'GET', path: '/store/orders' }));
    expect(error).toBeInstanceOf(RateLimitError);
    const { elapsed } = await settle(client.listPets());
    expect(elapsed).toBeGreaterThanOrEqual(29_000);
    expect(store.requests).toHaveLength(2);
  });

  it('warns once when a response announces the endpoint deprecated', async () => {
    const { client, store, logger } = setup();
    store.injectFault({
      match: { path: /^\/store\/orders/ },
      times: 2,
      status: 200,
      body: '[]',
      headers: { 'content-type': 'application/json', sunset: 'Tue, 01 Jan 2030 00:00:00 GMT' },
    });
    await client.request({ method: 'GET', path: '/store/orders/12' });
    await client.request({ method: 'GET', path: '/store/orders/13' });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(/GET \/store\/orders\/\{id\}.*Sunset: Tue, 01 Jan 2030/);
  });

  it('refuses paths that could leave the base URL before anything is sent', async () => {
    const { client, store } = setup();
    const paths = [
      'https://evil.example/v1/pets',
      'HTTP://animal-store.test/v1/pets',
      '//evil.example/pets',
      '/\\evil.example/pets',
      '\\\\evil.example',
      '/../pets',
      '/pets/../../admin',
      '/%2e%2e/admin',
      '/%2E%2e/admin',
      '/.%2E/admin',
      '/pets/%2e',
      '/pets%2f..%2fadmin',
      '/pets%2F..',
      '/pets%5c..',
      '/pets?limit=1',
      '/pets#top',
      '/pets//1',
      '/pets/%zz',
      '/pets/%c0%ae%c0%ae',
      'javascript:alert(1)',
      '/pets/\u0000',
      ' /pets',
    ];
    for (const path of paths) {
      const error = await client.request({ method: 'GET', path }).catch((e: unknown) => e);
      expect(error, path).toBeInstanceOf(RequestValidationError);
    }
    expect(store.requests).toHaveLength(0);
  });

  it('refuses a body on GET, a body JSON cannot carry, a bad method and reserved headers', async () => {
    const { client, store } = setup();
    const specs = [
      { method: 'GET', path: '/pets', body: { a: 1 } },
      { method: 'POST', path: '/pets', body: { id: 1n } },
      { method: 'TRACE', path: '/pets' },
      { method: 'GET', path: '/pets', headers: { Authorization: 'Bearer other' } },
      { method: 'GET', path: '/pets', schema: { parse: () => 1 } },
    ];
    for (const spec of specs) {
      const error = await client.request(spec as never).catch((e: unknown) => e);
      expect(
        error,
        JSON.stringify(spec, (_, v) => (typeof v === 'bigint' ? String(v) : v)),
      ).toBeInstanceOf(RequestValidationError);
    }
    expect(store.requests).toHaveLength(0);
  });

  it('refuses a field of an unknown name with a TypeError naming the closest known one', async () => {
    const { client, store } = setup();
    const error = await client.request({ method: 'GET', paht: '/pets' } as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('Unknown request() field "paht": did you mean "path"?');
    expect(store.requests).toHaveLength(0);
  });

  it('sends its own headers, with the per-call ones on top', async () => {
    const { client, store } = setup();
    await client
      .request(
        { method: 'GET', path: '/pets', headers: { 'X-Trace': 'a', 'X-Team': 'pets' } },
        { headers: { 'x-trace': 'b' } },
      )
      .catch(() => undefined);
    expect(store.requests[0]?.headers).toMatchObject({ 'x-trace': 'b', 'x-team': 'pets' });
  });
});
