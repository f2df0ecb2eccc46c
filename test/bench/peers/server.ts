/**
 * The peer benchmark's server: a fixed `node:http` handler on loopback, in a process of its own, that
 * answers the three operations with bodies serialized once and the headers the service sends (the
 * rate-limit reading, a request id), so that what is measured is the client's work alone.
 *
 * Protocol on stdio, as the fake store's loopback server: it prints `listening <url>` once ready,
 * answers `reset` with `ok` and `heap` with `heap <bytes>`, and stops when its stdin closes.
 *
 * @module
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { samplePets } from '../../../src/testing/sample-pets.js';
import { BENCH_API_KEY } from '../constants.js';
import { settledHeapUsed } from '../heap.js';

const pets = samplePets(100);
const bodies = new Map<string, string>([
  ['/v1/pets?limit=100', JSON.stringify(pets)],
  ...pets.map((pet): [string, string] => [`/v1/pets/${pet.id}`, JSON.stringify(pet)]),
]);
const authorization = `Bearer ${BENCH_API_KEY}`;
let created = 1000;

function send(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
    'x-ratelimit-limit': '10000000',
    'x-ratelimit-remaining': '9999999',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    'x-request-id': 'req_bench',
  });
  response.end(body);
}

function error(response: ServerResponse, status: number, code: string): void {
  send(response, status, JSON.stringify({ code, message: code, status }));
}

function handle(request: IncomingMessage, response: ServerResponse): void {
  if (request.headers.authorization !== authorization) {
    error(response, 401, 'unauthorized');
    return;
  }
  const url = request.url ?? '';
  if (request.method === 'GET') {
    const body = bodies.get(url);
    if (body === undefined) error(response, 404, 'not_found');
    else send(response, 200, body);
    return;
  }
  if (request.method === 'POST' && url === '/v1/pets') {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      text += chunk;
    });
    request.on('end', () => {
      const pet = JSON.parse(text) as Record<string, unknown>;
      send(response, 201, JSON.stringify({ id: ++created, ...pet }));
    });
    return;
  }
  error(response, 404, 'not_found');
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
