/**
 * Serves a one-script web page on loopback, as a static host would serve an application.
 *
 * @module
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running page server. */
export interface PageServer {
  /** The page's origin, e.g. `http://127.0.0.1:41234`. */
  readonly origin: string;
  close(): Promise<void>;
}

const page = (title: string) => `<!doctype html>
<html lang="en">
  <head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${title}</title></head>
  <body>
    <h1>${title}</h1>
    <pre id="report">Loading…</pre>
    <script type="module" src="/app.js"></script>
  </body>
</html>
`;

/** Serves `/` (a page titled `title` that loads `/app.js`) and `/app.js` (`script`) on 127.0.0.1. */
export async function servePage(title: string, script: string): Promise<PageServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page.invalid').pathname;
    if (path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(page(title));
    } else if (path === '/app.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(script);
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    }
  });
  return listenOnLoopback(server);
}

/** Starts `server` on 127.0.0.1, on a port the system picks. */
export async function listenOnLoopback(server: Server): Promise<PageServer> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
