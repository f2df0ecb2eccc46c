/**
 * The peer benchmark's server: a fixed `node:http` handler on loopback, in a process of its own, that
 * answers the three operations as answers.ts says, so that what is measured is the client's work
 * alone.
 *
 * Protocol on stdio, as the fake store's loopback server: it prints `listening <url>` once ready,
 * answers `reset` with `ok` and `heap` with `heap <bytes>`, and stops when its stdin closes.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { text } from 'node:stream/consumers';
import { settledHeapUsed } from '../heap.js';
import { peerAnswer, peerHeaders } from './answers.js';

function handle(request: IncomingMessage, response: ServerResponse): void {
  void text(request).then((body) => {
    const answer = peerAnswer({
      method: request.method ?? 'GET',
      url: request.url ?? '',
      authorization: request.headers.authorization,
      body,
    });
    response.writeHead(answer.status, peerHeaders(answer.body));
    response.end(answer.body);
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, handle);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('No port');
  process.stdout.write(`listening http://127.0.0.1:${address.port}/v1\n`);
});

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = line.trim();
  if (command === 'reset') process.stdout.write('ok\n');
  else if (command === 'heap')
    void settledHeapUsed().then((bytes) => process.stdout.write(`heap ${bytes}\n`));
});
lines.on('close', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
