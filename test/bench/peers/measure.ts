/**
 * The peer benchmark: the SDK beside raw fetch, ky and openapi-fetch, each with and without the same
 * zod schema, in four workloads against a fixed `node:http` server in another process, in rotating
 * rounds in this process; CPU time per call (`process.cpuUsage`) beside throughput.
 *
 * @module
 */
import type * as Sdk from '../../../src/index.js';
import { startLoopbackServer } from '../start-loopback-server.js';
import { alternate, median } from '../timing.js';
import { checkPeerAnswers, type PEERS, type PeerOperation, peerContenders } from './contenders.js';
import { IN_PROCESS_BASE_URL, inProcessFetch } from './in-process-fetch.js';

/**
 * Where the peers' service answers: `loopback`, a server in another process over a socket (what an
 * application sees); `in-process`, a `fetch` in the calling process (each client's own work alone).
 */
export type PeerService = 'loopback' | 'in-process';

/** One workload: an operation, how many calls in flight, and how many calls per contender. */
export interface PeerWorkload {
  readonly name: string;
  readonly operation: PeerOperation;
  readonly concurrency: number;
  readonly calls: number;
}

export const PEER_WORKLOADS: readonly PeerWorkload[] = [
  { name: 'list 100 pets, sequential', operation: 'listPets', concurrency: 1, calls: 2_000 },
  { name: 'list 100 pets, 50 in flight', operation: 'listPets', concurrency: 50, calls: 2_000 },
  { name: 'getPet, sequential', operation: 'getPet', concurrency: 1, calls: 2_000 },
  { name: 'createPet, sequential', operation: 'createPet', concurrency: 1, calls: 1_000 },
];

export interface PeerFigure {
  readonly name: string;
  readonly calls: number;
  readonly callsPerSecond: number;
  /**
   * CPU time of the calling process per call (user + system), in microseconds: the median over
   * rounds, so that a round another process's burst slowed does not weigh on the figure.
   */
  readonly cpuMicrosecondsPerCall: number;
  /** The same over all rounds together. */
  readonly meanCpuMicrosecondsPerCall: number;
  /** CPU time per call in each round, in the order the rounds ran. */
  readonly roundCpuMicrosecondsPerCall: readonly number[];
}

export interface PeerResult {
  readonly workload: PeerWorkload;
  readonly figures: readonly PeerFigure[];
}

const ROUNDS = 20;

/**
 * How many more calls the in-process run makes: a call there costs a fifth of one over a socket,
 * and a round must last long enough (tens of milliseconds) for the kernel's CPU accounting, which
 * moves in ticks of a few milliseconds.
 */
const IN_PROCESS_SCALE = 10;
const SERVER = new URL('./server.ts', import.meta.url).pathname;

/**
 * Runs each workload; `scale` multiplies its calls (`--peer-scale`). Seven contenders, twenty rounds,
 * the order rotating from round to round after a warm-up of each, against the service `where` says.
 */
export async function measurePeers(
  sdk: typeof Sdk,
  scale = 1,
  variants: readonly { readonly name: string; readonly sdk: typeof Sdk }[] = [],
  where: PeerService = 'loopback',
): Promise<PeerResult[]> {
  const server = where === 'loopback' ? await startLoopbackServer(SERVER) : undefined;
  const baseUrl = server?.url ?? IN_PROCESS_BASE_URL;
  const fetch = server ? undefined : inProcessFetch;
  try {
    const results: PeerResult[] = [];
    for (const workload of PEER_WORKLOADS) {
      const contenders = peerContenders(sdk, baseUrl, workload.operation, variants, fetch);
      await checkPeerAnswers(workload.operation, contenders);
      const calls = Math.max(10, Math.round(workload.calls * scale * (server ? 1 : IN_PROCESS_SCALE)));
      const measured = await alternate(contenders, {
        calls,
        rounds: ROUNDS,
        concurrency: workload.concurrency,
        warmup: Math.min(200, calls),
      });
      results.push({
        workload,
        figures: measured.map((entry) => ({
          name: entry.name,
          calls: entry.calls,
          callsPerSecond: (entry.calls * 1000) / entry.ms,
          cpuMicrosecondsPerCall: median(entry.roundCpuUs) / (entry.calls / ROUNDS),
          meanCpuMicrosecondsPerCall: entry.cpuUs / entry.calls,
          roundCpuMicrosecondsPerCall: entry.roundCpuUs.map((us) => us / (entry.calls / ROUNDS)),
        })),
      });
    }
    return results;
  } finally {
    await server?.stop();
  }
}

function figure(result: PeerResult, name: string): PeerFigure {
  const found = result.figures.find((entry) => entry.name === name);
  if (found === undefined) throw new Error(`No ${name} in ${result.workload.name}`);
  return found;
}

/** The SDK's CPU per call over a peer's in one workload, with the spread over rounds. */
export interface CpuRatio {
  /** The median over rounds of the ratio within each round, where machine noise hits both alike. */
  readonly median: number;
  /** The first and third quartiles of the same ratios. */
  readonly low: number;
  readonly high: number;
}

export function cpuRatio(result: PeerResult, peer: (typeof PEERS)[number]): CpuRatio {
  const base = figure(result, peer).roundCpuMicrosecondsPerCall;
  const ratios = figure(result, 'SDK')
    .roundCpuMicrosecondsPerCall.map((us, round) => us / (base[round] as number))
    .sort((a, b) => a - b);
  const quartile = (q: number) => ratios[Math.round(q * (ratios.length - 1))] as number;
  return { median: median(ratios), low: quartile(0.25), high: quartile(0.75) };
}
