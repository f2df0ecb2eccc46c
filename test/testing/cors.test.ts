/**
 * CORS, the same through the msw handlers and the HTTP server: preflights answered before the store
 * and never recorded, the methods of the route table, the headers a page asks to send, and the
 * headers a page may read; and the HTTP server acting like a strict service.
 */
import { describe, expect, it } from 'vitest';
import { createFakePetStore, type FakePetStore, samplePets } from '../../src/testing/index.js';
import { EXPOSED_HEADERS } from '../../src/testing/rules/cors.js';
import { ROUTE_METHODS } from '../../src/testing/rules/routes.js';
import { authed, type Connection, httpTransport, mswTransport } from './support/transports.js';

const ORIGIN = 'http://localhost:5173';

function preflight(connection: Connection, path: string, method: string, requested?: string) {
  return connection.fetch(`${connection.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: {
      Origin: ORIGIN,
      'Access-Control-Request-Method': method,
      ...(requested === undefined ? {} : { 'Access-Control-Request-Headers': requested }),
    },
  });
}

/** What a browser reads from a preflight's answer. */
function corsOf(response: Response) {
  return {
    status: response.status,
    allowOrigin: response.headers.get('access-control-allow-origin'),
    allowMethods: response.headers.get('access-control-allow-methods'),
    allowHeaders: response.headers.get('access-control-allow-headers'),
    maxAge: response.headers.get('access-control-max-age'),
  };
}

describe.for([mswTransport, httpTransport])('CORS through $name', (transport) => {
  async function serve(store: FakePetStore = createFakePetStore({ pets: samplePets(2) })) {
    return { store, connection: await transport.serve(store) };
  }

  it('answers a preflight without a key, with the route table’s methods, and records nothing', async () => {
    const { store, connection } = await serve();
    const answer = corsOf(await preflight(connection, '/pets', 'POST', 'authorization, content-type'));

    expect(answer).toEqual({
      status: 204,
      allowOrigin: '*',
      allowMethods: ROUTE_METHODS.join(', '),
      allowHeaders: 'Authorization, Content-Type',
      maxAge: '600',
    });
    expect(store.requests).toEqual([]);
  });

  it('allows whatever headers the page asks to send: a headers option, tracing', async () => {
    const { connection } = await serve();
    const answer = corsOf(
      await preflight(
        connection,
        '/pets/1',
        'GET',
        'authorization, traceparent, baggage, sentry-trace, x-app',
      ),
    );

    expect(answer.allowHeaders).toBe(
      'Authorization, Content-Type, traceparent, baggage, sentry-trace, x-app',
    );
  });

  it('lets a page read every header the SDK relies on, from answers and errors alike', async () => {
    const { connection } = await serve();
    for (const response of [
      await connection.fetch(`${connection.baseUrl}/pets/1`, authed({ headers: { Origin: ORIGIN } })),
      await connection.fetch(`${connection.baseUrl}/pets`, { headers: { Origin: ORIGIN } }),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-expose-headers')).toBe(EXPOSED_HEADERS.join(', '));
      expect(EXPOSED_HEADERS).toEqual(
        expect.arrayContaining([
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'Retry-After',
          'Date',
          'Deprecation',
          'Sunset',
          'Link',
          'Location',
          'X-Request-Id',
        ]),
      );
    }
  });

  it('answers a bare OPTIONS without a key as a preflight: a DOM environment strips Origin and Access-Control-Request-*', async () => {
    const { store, connection } = await serve();
    const answer = corsOf(await connection.fetch(`${connection.baseUrl}/pets`, { method: 'OPTIONS' }));

    expect(answer).toMatchObject({
      status: 204,
      allowMethods: ROUTE_METHODS.join(', '),
      allowHeaders: 'Authorization, Content-Type',
    });
    expect(store.requests).toEqual([]);
  });

  it('sends an OPTIONS with a key, which no page sends as a preflight, to the store, which has no route for it', async () => {
    const { store, connection } = await serve();
    const response = await connection.fetch(`${connection.baseUrl}/pets`, authed({ method: 'OPTIONS' }));

    expect(response.status).toBe(405);
    expect(store.requests.map((request) => request.method)).toEqual(['OPTIONS']);
  });
});

describe('the HTTP server as a strict service (corsHeaders)', () => {
  it('allows and exposes only the headers its list names', async () => {
    const store = createFakePetStore({ apiKeys: { 'test-api-key': { perMinute: 1, perDay: 10 } } });
    const server = await store.listen({ corsHeaders: ['Authorization', 'Content-Type', 'authorization'] });
    try {
      const connection = { baseUrl: server.url, fetch: globalThis.fetch };
      const answer = corsOf(await preflight(connection, '/pets', 'GET', 'authorization, traceparent'));
      await fetch(`${server.url}/pets`, authed({ headers: { Origin: ORIGIN } }));
      const limited = await fetch(`${server.url}/pets`, authed({ headers: { Origin: ORIGIN } }));

      expect(answer.allowHeaders).toBe('Authorization, Content-Type');
      expect(limited.status).toBe(429);
      // The service still sends them; a page may not read them.
      expect(limited.headers.get('retry-after')).not.toBeNull();
      expect(limited.headers.get('access-control-expose-headers')).toBe('Authorization, Content-Type');
    } finally {
      await server.close();
    }
  });

  it('exposes nothing beyond the safelisted headers for an empty list', async () => {
    const server = await createFakePetStore().listen({ corsHeaders: [] });
    try {
      const connection = { baseUrl: server.url, fetch: globalThis.fetch };
      const answer = corsOf(await preflight(connection, '/pets', 'GET', 'authorization'));
      const response = await fetch(`${server.url}/pets`, authed({ headers: { Origin: ORIGIN } }));

      expect(answer.allowHeaders).toBe('');
      expect(response.headers.get('access-control-expose-headers')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it.for([['Retry After'], [42], 'Authorization'])('refuses corsHeaders %j', async (corsHeaders) => {
    await expect(
      createFakePetStore().listen({ corsHeaders: corsHeaders as unknown as readonly string[] }),
    ).rejects.toThrow(TypeError);
  });
});
