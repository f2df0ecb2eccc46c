import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakePetStore } from '../../../src/testing/index.js';

/** A loopback HTTP server standing in for the service. */
export interface TestServer {
  /** Its base URL, ending in `/v1`. */
  readonly url: string;
  /** How many requests it received. */
  hits(): number;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/** Starts a server on 127.0.0.1 that answers every request with `handler`. */
export async function startServer(handler: Handler): Promise<TestServer> {
  let hits = 0;
  const server = createServer((request, response) => {
    hits += 1;
    void Promise.resolve(handler(request, response)).catch(() => request.socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A base URL on a loopback port that nothing listens on, so connecting is refused. */
export async function refusingUrl(): Promise<string> {
  const server = await startServer(() => {});
  await server.close();
  return server.url;
}

/** Drops the connection as soon as a request arrives, before any response. */
export const dropBeforeResponse: Handler = (request) => {
  request.socket.destroy();
};

/** Sends a 200's headers and part of its JSON body, then drops the connection. */
export const dropMidBody: Handler = (request, response) => {
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
  response.write('[{"id":1,"name":"Re');
  setImmediate(() => request.socket.destroy());
};

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Hands each request to `store` (which handles it: a create is applied) and then drops the
 * connection instead of sending the store's answer, as a connection lost on the way back would.
 */
export function forwardThenDrop(store: FakePetStore): Handler {
  return async (request, response) => {
    const body = await readBody(request);
    const path = (request.url ?? '/').replace(/^\/v1/, '');
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string') headers.set(name, value);
    }
    await store.fetch(`${store.baseUrl}${path}`, {
      method: request.method ?? 'GET',
      headers,
      ...(body === '' ? {} : { body }),
    });
    response.socket?.destroy();
  };
}
