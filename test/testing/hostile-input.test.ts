import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFakePetStore, type FakePetStore } from '../../src/testing/index.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../src/testing/rules/request-body.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { head, rawExchange } from './support/raw-socket.js';
import { authed } from './support/transports.js';

const AUTH = `Authorization: Bearer ${DEFAULT_API_KEY}`;

async function listen(store: FakePetStore, requestTimeout = 30_000) {
  const server = await store.listen({ port: 0, hostname: '127.0.0.1', requestTimeout });
  onTestFinished(() => server.close());
  return server;
}

/** After a hostile request, the server still answers a normal one. */
async function expectStillServing(url: string): Promise<void> {
  const response = await fetch(`${url}/pets`, authed());
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual([]);
}

function expectError(body: unknown, status: number, code: string): void {
  expect(body).toEqual({ code, message: expect.any(String), status });
}

const post = (length: number | 'chunked', extra: string[] = []) =>
  head([
    'POST /v1/pets HTTP/1.1',
    'Host: 127.0.0.1',
    AUTH,
    'Content-Type: application/json',
    length === 'chunked' ? 'Transfer-Encoding: chunked' : `Content-Length: ${length}`,
    ...extra,
  ]);

describe('the HTTP server against hostile input', () => {
  it('answers a body announced over the limit with 413, reads no further and stores nothing', async () => {
    const store = createFakePetStore();
    const server = await listen(store);
    const announced = 200 * 1024 * 1024;
    const exchange = await rawExchange(server.port, async (write) => {
      write(post(announced));
      write('{"name":"'.padEnd(64 * 1024, 'x'));
    });
    expect(exchange.status).toBe(413);
    expectError(exchange.body, 413, 'payload_too_large');
    expect(exchange.closedByServer).toBe(true);
    expect(store.pets).toEqual([]);
    expect(store.requests).toMatchObject([{ method: 'POST', path: '/pets', body: undefined }]);
    await expectStillServing(server.url);
  });

  it('counts a streamed (chunked) body and answers 413 once it passes the limit', async () => {
    const store = createFakePetStore({ maxBodyBytes: 4096 });
    const server = await listen(store);
    const exchange = await rawExchange(server.port, async (write) => {
      write(post('chunked'));
      const chunk = 'x'.repeat(1024);
      for (let i = 0; i < 8; i++) write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    });
    expect(exchange.status).toBe(413);
    expectError(exchange.body, 413, 'payload_too_large');
    expect(store.pets).toEqual([]);
    await expectStillServing(server.url);
  });

  it('accepts a body of exactly the limit', async () => {
    const body = JSON.stringify({ name: 'R'.padEnd(1000, 'x'), categoryId: 1 });
    const store = createFakePetStore({ maxBodyBytes: Buffer.byteLength(body) });
    const server = await listen(store);
    const response = await fetch(`${server.url}/pets`, {
      method: 'POST',
      body,
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
    });
    expect(response.status).toBe(201);
  });

  it('refuses a JSON body that is not UTF-8 with 400 invalid_json', async () => {
    const store = createFakePetStore();
    const server = await listen(store);
    const body = Buffer.concat([
      Buffer.from('{"name":"'),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from('","categoryId":1}'),
    ]);
    const exchange = await rawExchange(server.port, (write) => {
      write(post(body.length, ['Connection: close']));
      write(body);
    });
    expect(exchange.status).toBe(400);
    expectError(exchange.body, 400, 'invalid_json');
    expect(store.pets).toEqual([]);
    await expectStillServing(server.url);
  });

  it('refuses deeply nested JSON with 400 invalid_json and keeps it as text in the log', async () => {
    const store = createFakePetStore();
    const server = await listen(store);
    const body = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const exchange = await rawExchange(server.port, (write) => {
      write(post(body.length, ['Connection: close']));
      write(body);
    });
    expect(exchange.status).toBe(400);
    expectError(exchange.body, 400, 'invalid_json');
    expect(store.requests[0]?.body).toBe(body);
    await expectStillServing(server.url);
  });

  it('answers headers over 16 KiB with 431 and the Error shape', async () => {
    const server = await listen(createFakePetStore());
    const exchange = await rawExchange(server.port, (write) => {
      write(head(['GET /v1/pets HTTP/1.1', 'Host: 127.0.0.1', AUTH, `X-Padding: ${'a'.repeat(32 * 1024)}`]));
    });
    expect(exchange.status).toBe(431);
    expectError(exchange.body, 431, 'headers_too_large');
    expect(exchange.closedByServer).toBe(true);
    await expectStillServing(server.url);
  });

  it('answers a request target over 8 KiB with 414 and the Error shape', async () => {
    const server = await listen(createFakePetStore());
    const exchange = await rawExchange(server.port, (write) => {
      write(head([`GET /v1/pets?q=${'a'.repeat(10_000)} HTTP/1.1`, 'Host: 127.0.0.1', AUTH]));
    });
    expect(exchange.status).toBe(414);
    expectError(exchange.body, 414, 'uri_too_long');
    await expectStillServing(server.url);
  });

  it('answers garbage bytes with 400 bad_request and closes the connection', async () => {
    const server = await listen(createFakePetStore());
    const exchange = await rawExchange(server.port, (write) => {
      write(Buffer.from([0x00, 0xff, 0x13, 0x37, 0x0d, 0x0a, 0x0d, 0x0a, 0x16, 0x03, 0x01]));
    });
    expect(exchange.status).toBe(400);
    expectError(exchange.body, 400, 'bad_request');
    expect(exchange.closedByServer).toBe(true);
    await expectStillServing(server.url);
  });

  it('answers a client that sends half a body and stalls with 408 once the request time is up', async () => {
    const store = createFakePetStore();
    const server = await listen(store, 500);
    const started = Date.now();
    const exchange = await rawExchange(server.port, (write) => {
      write(post(100));
      write('{"name":"Re');
    });
    expect(exchange.status).toBe(408);
    expectError(exchange.body, 408, 'request_timeout');
    expect(exchange.closedByServer).toBe(true);
    // The check runs about once a second: generous bounds for a busy machine.
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(store.pets).toEqual([]);
    await expectStillServing(server.url);
  });
});

describe('store.fetch and msw against hostile input', () => {
  const tooBig = JSON.stringify({ name: 'x'.repeat(DEFAULT_MAX_BODY_BYTES), categoryId: 1 });
  const nested = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
  const init = (body: string): RequestInit => ({
    method: 'POST',
    body,
    headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
  });

  it('store.fetch answers a body over the limit with 413 and nested JSON with 400', async () => {
    const store = createFakePetStore();
    const large = await store.fetch(`${store.baseUrl}/pets`, init(tooBig));
    expect(large.status).toBe(413);
    expectError(await large.json(), 413, 'payload_too_large');
    const deep = await store.fetch(`${store.baseUrl}/pets`, init(nested));
    expectError(await deep.json(), 400, 'invalid_json');
    expect(store.pets).toEqual([]);
    expect(store.requests.map((r) => typeof r.body)).toEqual(['undefined', 'string']);
  });

  it('msw handlers answer a body over the limit with 413 and nested JSON with 400', async () => {
    const store = createFakePetStore();
    const server = setupServer(...store.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    onTestFinished(() => server.close());
    const large = await fetch(`${store.baseUrl}/pets`, init(tooBig));
    expectError(await large.json(), 413, 'payload_too_large');
    const deep = await fetch(`${store.baseUrl}/pets`, init(nested));
    expectError(await deep.json(), 400, 'invalid_json');
    expect(store.pets).toEqual([]);
  });
});

describe('the request log', () => {
  it('keeps the latest maxRecordedRequests, drops the oldest and counts them', async () => {
    const store = createFakePetStore({ maxRecordedRequests: 3 });
    for (let i = 1; i <= 5; i++) await store.fetch(`${store.baseUrl}/pets?limit=${i}`, authed());
    expect(store.requests.map((r) => r.url.slice(-7))).toEqual(['limit=3', 'limit=4', 'limit=5']);
    expect(store.droppedRequests).toBe(2);
    store.reset();
    expect(store.requests).toEqual([]);
    expect(store.droppedRequests).toBe(0);
  });

  it('keeps every request by default', async () => {
    const store = createFakePetStore();
    for (let i = 0; i < 50; i++) await store.fetch(`${store.baseUrl}/pets`, authed());
    expect(store.requests).toHaveLength(50);
    expect(store.droppedRequests).toBe(0);
  });

  it('refuses a limit that is not a count', () => {
    expect(() => createFakePetStore({ maxRecordedRequests: -1 })).toThrow(RangeError);
    expect(() => createFakePetStore({ maxBodyBytes: 1.5 })).toThrow(RangeError);
  });
});
