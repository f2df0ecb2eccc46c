/**
 * The tables `npm run bench` prints, and the derived figures it writes with them.
 *
 * @module
 */
import type { ClientMemory } from './client-memory-probe.js';
import { type OverheadResult, RAW } from './client-overhead.js';
import type { FakeStoreCost } from './fake-store-probe.js';
import { FLEET_PLAN, type FleetRunResult } from './fleet-run.js';
import { megabytes } from './heap.js';
import type { HostileRow } from './hostile-input.js';
import { OPEN_LOOP_DEFAULTS, OPEN_LOOP_PLAN, type OpenLoopFigure } from './open-loop.js';
import type { ParseResult } from './schema-parse.js';
import type { SessionsResult } from './sessions.js';
import type { SoakResult } from './soak.js';
import { SPREAD_PLAN, type SpreadFigure } from './spread.js';
import { IN_PROCESS, type StoreOverheadResult } from './store-overhead.js';
import { formatNumber, formatTable } from './table.js';

function caseName({ operation, concurrency }: Pick<OverheadResult, 'operation' | 'concurrency'>): string {
  const call = operation === 'listPets' ? 'listPets({ limit: 100 })' : 'getPet(id)';
  return concurrency === 1 ? `${call}, sequential` : `${call}, ${concurrency} concurrent`;
}

/** calls/s of every contender per case, each with its throughput relative to raw fetch. */
export function overheadTable(results: readonly OverheadResult[]): string {
  const names = results[0]?.results.map((result) => result.name) ?? [];
  const rows = results.map((result) => [
    caseName(result),
    ...result.results.map((contender) =>
      contender.name === RAW
        ? formatNumber(contender.callsPerSecond)
        : `${formatNumber(contender.callsPerSecond)} (${contender.ratioToRaw.toFixed(2)})`,
    ),
  ]);
  const cpuRows = results.map((result) => [
    caseName(result),
    ...result.results.map((contender) => formatNumber(contender.cpuMicrosecondsPerCall)),
  ]);
  return [
    `Calls per second against the loopback server (in parentheses: throughput / ${RAW}'s)`,
    formatTable(['case', ...names], rows),
    '',
    'CPU time of the calling process per call, µs (user + system; the server runs in another process)',
    formatTable(['case', ...names], cpuRows),
  ].join('\n');
}

export function parseTable(results: readonly ParseResult[]): string {
  return [
    'Parsing in-process, the same body over and over (in a real call, with caches cold, expect about twice this)',
    formatTable(
      ['parse', 'µs per parse'],
      results.map((result) => [result.name, result.microsecondsPerParse.toFixed(1)]),
    ),
  ].join('\n');
}

/** Heap change per 1,000 requests, in KB. */
function kbPerThousand(from: number, to: number, calls: number): number {
  return (to - from) / 1024 / (calls / 1000);
}

/** The fake store's figures with the heap changes per 1,000 requests worked out. */
export interface FakeStoreSummary extends FakeStoreCost {
  readonly kbPer1000Requests: number;
  readonly kbPer1000RequestsAfterReset: number;
  readonly kbPer1000RequestsAfterClose: number | undefined;
}

export function summarizeFakeStore(cost: FakeStoreCost): FakeStoreSummary {
  return {
    ...cost,
    kbPer1000Requests: kbPerThousand(cost.heapBefore, cost.heapAfterCalls, cost.calls),
    kbPer1000RequestsAfterReset: kbPerThousand(cost.heapBefore, cost.heapAfterReset, cost.calls),
    kbPer1000RequestsAfterClose:
      cost.heapAfterClose === undefined
        ? undefined
        : kbPerThousand(cost.heapBefore, cost.heapAfterClose, cost.calls),
  };
}

const WAY_NAMES = {
  msw: 'msw handlers (setupServer + global fetch)',
  fetch: 'store.fetch',
  http: 'HTTP server (loopback, heap of its process)',
} as const;

export function fakeStoreTable(summaries: readonly FakeStoreSummary[]): string {
  const kb = (value: number | undefined) => (value === undefined ? '-' : formatNumber(value));
  return [
    'The fake store, sequential GET /pets?limit=100 (heap growth in KB per 1,000 requests, after gc)',
    formatTable(
      ['way in', 'calls/s', 'after the calls', 'after store.reset()', 'after server.close()'],
      summaries.map((summary) => [
        WAY_NAMES[summary.way],
        formatNumber(summary.callsPerSecond),
        kb(summary.kbPer1000Requests),
        kb(summary.kbPer1000RequestsAfterReset),
        kb(summary.kbPer1000RequestsAfterClose),
      ]),
    ),
  ].join('\n');
}

/** The client's memory run with its start and end heap. */
export interface ClientMemorySummary extends ClientMemory {
  readonly heapAfter: number;
  readonly heapGrowth: number;
}

export function summarizeClientMemory(memory: ClientMemory): ClientMemorySummary {
  const heapAfter = memory.heapSamples.at(-1) ?? memory.heapBefore;
  return { ...memory, heapAfter, heapGrowth: heapAfter - memory.heapBefore };
}

export function clientMemoryTable(summaries: readonly ClientMemorySummary[]): string {
  return [
    'One client on store.fetch, 50 concurrent, listPets/getPet alternating (heap after gc)',
    formatTable(
      [
        'caller signal',
        'calls',
        'calls/s',
        'heap at start',
        'heap at end',
        'growth',
        'heap after each tenth (MB)',
      ],
      summaries.map((summary) => [
        summary.signal === 'shared' ? 'one shared AbortSignal' : 'none',
        formatNumber(summary.calls),
        formatNumber(summary.callsPerSecond),
        megabytes(summary.heapBefore),
        megabytes(summary.heapAfter),
        megabytes(summary.heapGrowth),
        summary.heapSamples.map((bytes) => (bytes / 1024 / 1024).toFixed(1)).join(' '),
      ]),
    ),
  ].join('\n');
}

const mb = (bytes: number) => formatNumber(bytes / 1024 ** 2, 1);

/** The soak: throughput, and the server's memory along the way. */
export function soakTable(result: SoakResult): string {
  const statuses = Object.entries(result.statuses)
    .map(([status, count]) => `${status}: ${formatNumber(count)}`)
    .join(', ');
  const rows = result.samples.map((sample) => [
    formatNumber(sample.requests),
    mb(sample.rss),
    mb(sample.heapUsed),
  ]);
  return [
    `animal-store-fake-server soak: ${formatNumber(result.requests)} requests (${Math.round(result.createShare * 100)}% creates, ` +
      `the rest GET /pets?limit=100), ${result.concurrency} connections, keep-alive`,
    `${formatNumber(result.requestsPerSecond)} requests/s over ${formatNumber(result.seconds, 1)} s; ${statuses}; ` +
      `${formatNumber(result.pets)} pets at the end. ${result.stopped}`,
    formatTable(['After requests', 'Server RSS (MB)', 'Server heap after GC (MB)'], rows),
  ].join('\n');
}

/** Sessions under churn: the server's memory as sessions come and go. */
export function sessionsTable(result: SessionsResult): string {
  return [
    `animal-store-fake-server sessions: ${formatNumber(result.sessions)} sessions, each seeded with 50 pets, ` +
      `sent ${result.requestsPerSession} requests and abandoned; at most ${result.maxSessions} at once, ` +
      `idle ones ending after ${result.idleMs} ms`,
    `${formatNumber(result.seconds, 1)} s; ${formatNumber(result.refused)} creations refused 503 while full, retried.`,
    formatTable(
      ['After sessions', 'Server RSS (MB)', 'Server heap after GC (MB)'],
      result.samples.map((sample) => [formatNumber(sample.sessions), mb(sample.rss), mb(sample.heapUsed)]),
    ),
  ].join('\n');
}

/** The bad-input table. */
export function hostileTable(rows: readonly HostileRow[]): string {
  return formatTable(
    ['Input', 'Answer', 'Still serving', 'Heap before/after (MB)', 'RSS before/after (MB)', 'Client wrote'],
    rows.map((row) => [
      row.input,
      row.answer,
      row.stillServing ? 'yes' : 'NO',
      `${mb(row.heapBefore)} / ${mb(row.heapAfter)}`,
      `${mb(row.rssBefore)} / ${mb(row.rssAfter)}`,
      row.bytesWritten === undefined ? '' : `${mb(row.bytesWritten)} MB`,
    ]),
  );
}

/** calls/s with each rate-limit store, its ratio to the in-process store's, and the added latency. */
export function storeTable(results: readonly StoreOverheadResult[]): string {
  const rows = results.flatMap((result) => [
    [
      result.topology,
      IN_PROCESS,
      '',
      '',
      '',
      '',
      formatNumber(result.inProcess.sequentialCallsPerSecond),
      formatNumber(result.inProcess.concurrentCallsPerSecond),
    ],
    ...result.results.map((contender) => [
      result.topology,
      `Redis store, ${contender.client}`,
      formatNumber(contender.pingMicroseconds),
      formatNumber(contender.pingAddedMicrosecondsPerCall),
      formatNumber(contender.addedMicrosecondsPerCall),
      `${contender.roundTripsPerCall.toFixed(2)} (${contender.concurrentRoundTripsPerCall.toFixed(2)})`,
      formatNumber(contender.sequentialCallsPerSecond),
      `${formatNumber(contender.concurrentCallsPerSecond)} (${contender.concurrentMedianRoundRatio.toFixed(2)})`,
    ]),
  ]);
  return [
    `listPets through each rate-limit store against the loopback server, Redis on loopback: a PING's round trip on the store's connection (in a loop; and what one before each ${IN_PROCESS} call adds to it), the time the store adds to each call against the ${IN_PROCESS}, and the scripts Redis ran per call (evalsha + eval + exec; 50 concurrent in parentheses)`,
    formatTable(
      [
        'Redis',
        'store',
        'PING µs',
        'PING added µs per call',
        'store added µs per call',
        'scripts per call',
        'sequential calls/s',
        '50 concurrent calls/s (ratio)',
      ],
      rows,
    ),
  ].join('\n');
}

/** The outcome of each fleet run. */
export function fleetTable(results: readonly Omit<FleetRunResult, 'svg'>[]): string {
  const rows = results.map((result) => [
    result.mode === 'redis' ? 'shared through Redis' : 'each process by itself',
    String(result.processes),
    `${result.succeededCalls} of ${result.calls}`,
    String(result.requests),
    String(result.refused),
    result.keyBanned ? 'yes' : 'no',
    `${result.windowsUsed} / ${result.windowsMinimum}`,
    result.seconds.toFixed(1),
  ]);
  return [
    `One key, ${FLEET_PLAN.limit} requests per ${FLEET_PLAN.windowMs / 1000} s window, the fake store over HTTP`,
    formatTable(
      ['pacing', 'processes', 'calls ok', 'requests', '429s', 'banned', 'windows used / needed', 's'],
      rows,
    ),
  ].join('\n');
}

/** p50 and p99 of each contender under the open-loop load, and the SDK's p99 over ky + zod's. */
export function openLoopTable(figures: readonly OpenLoopFigure[]): string {
  const { rate, seconds, segments } = OPEN_LOOP_DEFAULTS;
  const [sdk, peer] = figures;
  const ratios =
    sdk && peer ? sdk.segmentP99.map((p99, index) => p99 / (peer.segmentP99[index] ?? Number.NaN)) : [];
  const sorted = [...ratios].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
  return [
    `Open loop: ${rate} calls/s per client for ${seconds} s, the clients' calls in turn, against the fake's ` +
      `command (plan ${formatNumber(OPEN_LOOP_PLAN.limit)} per ${OPEN_LOOP_PLAN.windowMs / 1000} s); ms per call`,
    formatTable(
      ['client', 'calls', 'failed', 'p50', 'p99', `p99 of each ${seconds / segments} s`, 'max'],
      figures.map((figure) => [
        figure.name,
        formatNumber(figure.calls),
        formatNumber(figure.failures),
        figure.p50.toFixed(1),
        figure.p99.toFixed(1),
        figure.segmentP99.map((p99) => p99.toFixed(0)).join(' / '),
        figure.max.toFixed(0),
      ]),
    ),
    `SDK p99 / ky + zod p99: ${sdk && peer ? (sdk.p99 / peer.p99).toFixed(2) : '?'} over the run, ` +
      `${median.toFixed(2)} the median of the segments' (${ratios.map((ratio) => ratio.toFixed(2)).join(', ')})`,
  ].join('\n');
}

/** Each `pacingBurst` above the plan and below it. */
export function spreadTable(figures: readonly SpreadFigure[]): string {
  return [
    `pacingBurst on a plan of ${SPREAD_PLAN.limit} per ${SPREAD_PLAN.windowMs / 1000} s. Above it (10 calls/s, callers ` +
      'leaving after 10 s): peak in flight, most sent in 250 ms, answers per whole window. Below it: 10 calls at ' +
      'once from a fresh client (first / last answer), calls at random at half the rate (p50 / p99)',
    formatTable(
      [
        'pacingBurst',
        'peak in flight',
        'most in 250 ms',
        'answers per window',
        'first / last of 10, ms',
        'p50 / p99, ms',
      ],
      figures.map((figure) => [
        String(figure.burst),
        String(figure.peakInFlight),
        String(figure.mostIn250Ms),
        figure.answersPerWindow.join(', '),
        `${figure.firstAnswerMs.toFixed(0)} / ${figure.lastAnswerMs.toFixed(0)}`,
        `${figure.p50.toFixed(1)} / ${figure.p99.toFixed(1)}`,
      ]),
    ),
  ].join('\n');
}
