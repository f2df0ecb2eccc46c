/**
 * Serves a directory of built files on loopback, as a static host serves an application, together
 * with msw's service worker script at the root of the origin.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { listenOnLoopback, type PageServer } from './page-server.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** Serves `directory` (`/` is its index.html) and `/mockServiceWorker.js` from `workerScript`. */
export async function serveDirectory(directory: string, workerScript: string): Promise<PageServer> {
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://page.invalid').pathname;
    const file =
      path === '/mockServiceWorker.js'
        ? workerScript
        : join(directory, normalize(path === '/' ? '/index.html' : path).replace(/^(\.\.[/\\])+/, ''));
    readFile(file).then(
      (body) =>
        response
          .writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' })
          .end(body),
      () => response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found'),
    );
  });
  return listenOnLoopback(server);
}
