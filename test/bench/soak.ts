/**
 * The soak: the `animal-store-fake-server` command under sustained mixed load (lists and creates,
 * a few connections in parallel, keep-alive), its memory sampled along the way.
 *
 * @module
 */
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { type ServerMemory, startCliServer } from './cli-server.js';

/** One memory sample, after `requests` requests. */
export interface SoakSample extends ServerMemory {
  readonly requests: number;
}

/** What the soak measured. */
export interface SoakResult {
  readonly requests: number;
  readonly concurrency: number;
  readonly createShare: number;
  readonly seconds: number;
  readonly requestsPerSecond: number;
  /** How many responses of each status arrived. */
  readonly statuses: Record<string, number>;
  readonly samples: SoakSample[];
  /** The pets the store held at the end: memory the creates were meant to use. */
  readonly pets: number;
  /** What the server printed when it stopped (the requests kept and dropped). */
  readonly stopped: string;
}

/** A plan that no soak can exhaust: the soak measures the server, not its refusals. */
const SOAK_PLAN = '1000000000/1000000000';

/** Runs `requests` requests, `createShare` of them creates, `concurrency` at a time. */
export async function runSoak(requests: number, concurrency = 8, createShare = 0.2): Promise<SoakResult> {
  const server = await startCliServer(['--plan', SOAK_PLAN, '--seed', '100']);
  const headers = { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' };
  const statuses: Record<string, number> = {};
  const samples: SoakSample[] = [{ requests: 0, ...(await server.memory()) }];
  const sampleEvery = Math.max(1, Math.floor(requests / 10));
  let sent = 0;
  let creates = 0;
  let sampling: Promise<void> = Promise.resolve();

  const worker = async () => {
    while (sent < requests) {
      const n = sent++;
      // Every fifth request (for the default share) creates; the rest list a page of 100.
      const create = Math.floor((n + 1) * createShare) > Math.floor(n * createShare);
      const response = create
        ? await fetch(`${server.url}/pets`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ name: `Pet ${n}`, categoryId: (n % 5) + 1, status: 'available' }),
          })
        : await fetch(`${server.url}/pets?limit=100`, { headers });
      await response.arrayBuffer();
      if (create) creates++;
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
      if ((n + 1) % sampleEvery === 0) {
        const at = n + 1;
        sampling = sampling.then(async () => {
          samples.push({ requests: at, ...(await server.memory()) });
        });
      }
    }
  };

  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  await sampling;
  const alive = server.alive();
  const stopped = await server.stop();
  if (!alive) throw new Error('The server died during the soak');
  return {
    requests,
    concurrency,
    createShare,
    seconds,
    requestsPerSecond: requests / seconds,
    statuses,
    samples,
    pets: 100 + creates,
    stopped: stopped.split('\n').find((line) => line.startsWith('Requests kept')) ?? '',
  };
}
