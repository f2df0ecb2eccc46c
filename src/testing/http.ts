/**
 * The fake Animal Store as a real HTTP server (node:http, so Node, Bun and Deno), with CORS so browser code can call it.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ListenOptions, RunningFakeServer, StoreCore } from './fake-store.js';

/**
 * The headers browser code may read from the server's responses (beyond the CORS-safelisted ones).
 *
 * @example
 * ```ts
 * import { EXPOSED_HEADERS } from './http.js';
 *
 * EXPOSED_HEADERS.includes('Retry-After'); // true
 * ```
 */
export const EXPOSED_HEADERS: readonly string[] = Object.freeze([
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'Retry-After',
  'Deprecation',
  'Sunset',
  'Link',
  'Location',
  'WWW-Authenticate',
]);

const CORS_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
});

const PREFLIGHT_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type',
  'Access-Control-Max-Age': '600',
});

/**
 * Starts an HTTP server answering with the store. It serves the store's base path (e.g. `/v1`) on
 * whatever host name the client used; CORS preflights are answered here, before the store, and are not
 * recorded.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * // store.listen() loads this module and calls listenHttp.
 * const { url, close } = await createFakePetStore().listen({ port: 0 });
 * await close();
 * ```
 */
export async function listenHttp(core: StoreCore, options: ListenOptions): Promise<RunningFakeServer> {
  const hostname = options.hostname ?? '127.0.0.1';
  const closing = new AbortController();
  // Node's closeIdleConnections() leaves alone a connection that has not sent a request yet (which a
  // client may open ahead of time), so close() tracks which sockets are busy and destroys the others.
  const sockets = new Set<Socket>();
  const busy = new Set<Socket>();

  const server = createServer((req, res) => {
    busy.add(req.socket);
    res.once('close', () => busy.delete(req.socket));
    handle(core, req, res, closing.signal).catch(() => {
      req.socket.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, hostname, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(hostname)}:${port}${core.base.path}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error === undefined ? resolve() : reject(error)));
        closing.abort(new Error('The fake server is closing'));
        server.closeIdleConnections();
        for (const socket of sockets) if (!busy.has(socket)) socket.destroy();
      }),
  };
}

async function handle(
  core: StoreCore,
  req: IncomingMessage,
  res: ServerResponse,
  closing: AbortSignal,
): Promise<void> {
  const method = req.method ?? 'GET';
  const host = req.headers.host ?? 'localhost';
  const url = new URL(req.url ?? '/', `http://${host}`);

  if (
    method === 'OPTIONS' &&
    req.headers.origin !== undefined &&
    req.headers['access-control-request-method']
  ) {
    req.resume();
    res.writeHead(204, PREFLIGHT_HEADERS).end();
    return;
  }

  const aborted = new AbortController();
  const abort = () => aborted.abort(new DOMException('The client closed the connection', 'AbortError'));
  res.once('close', () => {
    if (!res.writableFinished) abort();
  });
  closing.addEventListener('abort', abort, { once: true });

  try {
    const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
    const request = new Request(url, {
      method,
      headers: requestHeaders(req),
      signal: aborted.signal,
      ...(body === undefined ? {} : { body }),
    });
    const outcome = await core.respond(request, `http://${host}${core.base.path}`);
    if (outcome.kind === 'network-error') {
      req.socket.destroy();
      return;
    }
    const { response } = outcome;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(CORS_HEADERS)) headers[name.toLowerCase()] = value;
    for (const [name, value] of response.headers) headers[name] = value;
    const payload = Buffer.from(await response.arrayBuffer());
    headers['content-length'] = String(payload.length);
    if (closing.aborted) headers.connection = 'close';
    res.writeHead(response.status, headers);
    res.end(method === 'HEAD' ? undefined : payload);
  } finally {
    closing.removeEventListener('abort', abort);
  }
}

async function readBody(req: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new Uint8Array(Buffer.concat(chunks));
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i];
    const value = req.rawHeaders[i + 1];
    if (name !== undefined && value !== undefined) headers.append(name, value);
  }
  return headers;
}

function urlHost(hostname: string): string {
  if (hostname === '0.0.0.0') return '127.0.0.1';
  if (hostname === '::') return '[::1]';
  return hostname.includes(':') ? `[${hostname}]` : hostname;
}
