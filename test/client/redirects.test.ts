/**
 * Redirects carry nothing away, against two real HTTP servers on loopback: one plays the API, the
 * other an "evil" origin. A redirect under the base URL is followed; any other fails with a
 * RedirectError and the other origin hears nothing.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FetchOptions } from '../../src/core/types.js';
import { PetStoreClient, RedirectError } from '../../src/index.js';

const KEY = 'sk_live_redirect+SECRET/0123';

interface Heard {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A loopback server that records what it hears and answers with `answer`. */
async function recordingServer(answer: (request: Heard, response: ServerResponse) => void) {
  const heard: Heard[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      const seen = { method: request.method, url: request.url, headers: request.headers, body };
      heard.push(seen);
      answer(seen, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise((resolve) => {
      server.close(resolve);
      server.closeAllConnections();
    });
  return { heard, origin, close };
}

function redirect(response: ServerResponse, status: number, location: string): void {
  response.writeHead(status, { location, 'content-type': 'text/plain' }).end('moved');
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Redirects under the base URL's path that leave it once decoded, as a server that decodes `%2F` reads them. */
const ENCODED = [
  '/v1/..%2f..%2fadmin',
  '/v1/pets%2F..%2F..%2Fadmin',
  '/v1/..%5C..%5Cadmin',
  '/v1/%2e%2E%2fadmin',
];

let api: Awaited<ReturnType<typeof recordingServer>>;
let evil: Awaited<ReturnType<typeof recordingServer>>;

beforeAll(async () => {
  evil = await recordingServer((_, response) => json(response, 200, [{ id: 666, name: 'Evil' }]));
  api = await recordingServer(({ url, method, body }, response) => {
    const path = url ?? '';
    if (path === '/v1/to-evil-with-key')
      return redirect(response, 302, `${evil.origin}/x?key=${encodeURIComponent(KEY)}`);
    if (path.startsWith('/v1/to-evil'))
      return redirect(response, Number(path.split('/')[3]), `${evil.origin}/v1/pets`);
    if (path === '/v1/to-outside') return redirect(response, 302, '/outside/x');
    if (path.startsWith('/v1/to-encoded/'))
      return redirect(response, 302, ENCODED[Number(path.slice(15))] ?? '');
    if (path === '/v1/loop') return redirect(response, 302, '/v1/loop');
    if (path.startsWith('/v1/moved/')) return redirect(response, Number(path.split('/')[3]), '/v1/pets');
    if (path === '/v1/pets') return json(response, 200, { method, body });
    return json(response, 404, { code: 'not_found', message: 'no', status: 404 });
  });
});
afterAll(async () => {
  await Promise.all([api.close(), evil.close()]);
});
beforeEach(() => {
  api.heard.length = 0;
  evil.heard.length = 0;
});

function client(fetchOptions?: FetchOptions) {
  return new PetStoreClient({
    apiKey: KEY,
    baseUrl: `${api.origin}/v1`,
    headers: { 'X-Api-Key': KEY },
    maxRetries: 2,
    logLevel: 'off',
    ...(fetchOptions ? { fetchOptions } : {}),
  });
}

describe('a redirect to another origin', () => {
  it.each([301, 302, 303, 307, 308])(
    '(%i) fails with a RedirectError naming it, and the other origin hears nothing',
    async (status) => {
      const error = await client()
        .request({ method: 'POST', path: `/to-evil/${status}`, body: { name: 'Rex' } })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RedirectError);
      expect(error).toMatchObject({ status, location: `${evil.origin}/v1/pets` });
      expect((error as Error).message).toBe(
        `The service redirected POST /to-evil/${status} (${status}) to ${evil.origin}/v1/pets; the client did not follow, since it leaves the base URL, and nothing was sent there.`,
      );
      expect(evil.heard).toEqual([]);
      // Not retried: the answer will not change.
      expect(api.heard).toHaveLength(1);
    },
  );

  it('names where it pointed with the API key redacted', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/to-evil-with-key' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ location: `${evil.origin}/x?key=[redacted]` });
    expect(JSON.stringify(error)).not.toContain(encodeURIComponent(KEY));
    expect(evil.heard).toEqual([]);
  });
});

describe('a redirect on the same origin', () => {
  it('outside the base URL’s path fails, and nothing is sent there', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/to-outside' })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'RedirectError', location: `${api.origin}/outside/x` });
    expect(api.heard.map(({ url }) => url)).toEqual(['/v1/to-outside']);
  });

  it.each(ENCODED.map((location, index) => [location, index] as const))(
    'to %s, which request() would refuse once decoded, fails, and nothing is sent there',
    async (location, index) => {
      const error = await client()
        .request({ method: 'GET', path: `/to-encoded/${index}` })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ name: 'RedirectError', location: `${api.origin}${location}` });
      expect(api.heard).toHaveLength(1);
    },
  );

  it('under the base URL is followed with the client’s headers; 307 and 308 send the body again', async () => {
    for (const status of [307, 308]) {
      const data = await client().request({
        method: 'POST',
        path: `/moved/${status}`,
        body: { name: 'Rex' },
      });
      expect(data).toEqual({ method: 'POST', body: '{"name":"Rex"}' });
    }
    const hops = api.heard.filter(({ url }) => url === '/v1/pets');
    expect(hops).toHaveLength(2);
    for (const hop of hops) {
      expect(hop.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(hop.headers['x-api-key']).toBe(KEY);
    }
  });

  it('under the base URL, a 303 (or a 301 or 302 after a POST) becomes a GET without a body', async () => {
    for (const status of [301, 302, 303]) {
      const data = await client().request({
        method: 'POST',
        path: `/moved/${status}`,
        body: { name: 'Rex' },
      });
      expect(data).toEqual({ method: 'GET', body: '' });
    }
  });

  it("is not followed when fetchOptions say redirect: 'error'", async () => {
    const error = await client({ redirect: 'error' })
      .request({ method: 'GET', path: '/moved/302' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toContain("since fetchOptions say redirect: 'error'");
    expect(api.heard.map(({ url }) => url)).toEqual(['/v1/moved/302']);
  });

  it('is followed five times at most', async () => {
    const error = await client()
      .request({ method: 'GET', path: '/loop' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RedirectError);
    expect(api.heard).toHaveLength(6);
  });
});
