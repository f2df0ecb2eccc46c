/**
 * The fake store served over HTTP on loopback, in a process of its own so that its work does not
 * share a thread with the clients being measured. Started by {@link startLoopbackServer}.
 *
 * Protocol on stdio, one line each: it prints `listening <url>` once ready; it answers `reset` (forget
 * recorded requests and rate-limit windows) with `ok`, and `heap` (the heap once settled, which needs
 * `--expose-gc`) with `heap <bytes>`. It stops when its stdin closes.
 *
 * @module
 */
import { createInterface } from 'node:readline';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { BENCH_API_KEY, UNREACHABLE_LIMITS } from './constants.js';
import { settledHeapUsed } from './heap.js';

const store = createFakePetStore({
  apiKeys: { [BENCH_API_KEY]: UNREACHABLE_LIMITS },
  pets: samplePets(100),
});
const server = await store.listen({ port: 0, hostname: '127.0.0.1' });
process.stdout.write(`listening ${server.url}\n`);

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  const command = line.trim();
  if (command === 'reset') {
    store.reset();
    process.stdout.write('ok\n');
  } else if (command === 'heap') {
    void settledHeapUsed().then((bytes) => process.stdout.write(`heap ${bytes}\n`));
  }
});
lines.on('close', () => {
  void server.close().then(() => process.exit(0));
});
