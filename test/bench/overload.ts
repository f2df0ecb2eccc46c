/**
 * The overload section: callers at twice the plan for a while, then none, against the fake's
 * command on a short window; the SDK with its defaults beside plain ky + zod retrying 429s with
 * `Retry-After` by hand, each with and without the callers' signals, in one process and in two
 * (the SDK's sharing the Redis store). Each run is a process of its own (overload-probe.ts), so
 * that its heap is its own and its exit can be timed.
 *
 * @module
 */
import { createInterface } from 'node:readline';
import { ensurePackageBuilt } from '../support/package-build.js';
import { startRedisServer } from '../support/redis-server.js';
import { startCliServer } from './cli-server.js';
import { formatNumber, formatTable } from './table.js';
import { spawnTsx } from './tsx-process.js';

/** How long and how hard: the defaults keep the section to about four minutes. */
export interface OverloadOptions {
  /** Requests per window the plan allows. */
  readonly limit: number;
  readonly windowMs: number;
  /** How long the demand lasts, in seconds. */
  readonly seconds: number;
  /** How long a caller waits for its answer before it gives up. */
  readonly callerTimeoutMs: number;
}

export const OVERLOAD_DEFAULTS: OverloadOptions = {
  limit: 20,
  windowMs: 2_000,
  seconds: 10,
  callerTimeoutMs: 5_000,
};

/** What one process measured (overload-probe.ts). */
interface ProbeResult {
  readonly contender: 'sdk' | 'ky';
  readonly signals: boolean;
  readonly calls: number;
  readonly answered: number;
  readonly useful: number;
  readonly refused: number;
  /** Calls still waiting when the client closed, rejected by `close()`. */
  readonly closed: number;
  readonly requests: number;
  readonly refused429: number;
  readonly sentAfterDemand: number;
  readonly peakWaiting: number;
  readonly peakPending: number;
  readonly heapBefore: number;
  readonly heapAtPeak: number;
  readonly heapAfter: number;
  readonly p50: number;
  readonly p99: number;
  readonly closeMs: number;
  readonly inFlightAtReset: number;
}

/** One row: a contender, with or without signals, in one or two processes. */
export interface OverloadRow extends Omit<ProbeResult, 'p50' | 'p99'> {
  readonly processes: number;
  readonly p50: number;
  readonly p99: number;
  /** From the demand's end (the SDK's `close()`) to the last process's exit. */
  readonly exitMs: number;
}

const PROBE = new URL('./overload-probe.ts', import.meta.url).pathname;
const KEY = 'overload-bench-key';

/** Runs one probe and resolves with its figures and how long after `closing` it exited. */
async function runOne(args: readonly string[]): Promise<ProbeResult & { exitMs: number }> {
  const child = spawnTsx(PROBE, args, ['--expose-gc']);
  child.stdin.end();
  const exited = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
  let closingAt = Number.NaN;
  let result: ProbeResult | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('closing ')) closingAt = Number(line.slice('closing '.length));
    else if (line.startsWith('result ')) result = JSON.parse(line.slice('result '.length)) as ProbeResult;
    else if (line !== '') process.stderr.write(`${line}\n`);
  }
  const exitAt = await exited;
  if (result === undefined) throw new Error(`overload-probe.ts ${args.join(' ')} printed no result`);
  return { ...result, exitMs: exitAt - closingAt };
}

/** Sums the processes of one run into a row. */
function combine(results: readonly (ProbeResult & { exitMs: number })[]): OverloadRow {
  const sum = (pick: (result: ProbeResult) => number) => results.reduce((total, r) => total + pick(r), 0);
  const max = (pick: (result: ProbeResult & { exitMs: number }) => number) => Math.max(...results.map(pick));
  const first = results[0] as ProbeResult;
  return {
    contender: first.contender,
    signals: first.signals,
    processes: results.length,
    calls: sum((r) => r.calls),
    answered: sum((r) => r.answered),
    useful: sum((r) => r.useful),
    refused: sum((r) => r.refused),
    closed: sum((r) => r.closed),
    requests: sum((r) => r.requests),
    refused429: sum((r) => r.refused429),
    sentAfterDemand: sum((r) => r.sentAfterDemand),
    peakWaiting: sum((r) => r.peakWaiting),
    peakPending: sum((r) => r.peakPending),
    heapBefore: max((r) => r.heapBefore),
    heapAtPeak: max((r) => r.heapAtPeak),
    heapAfter: max((r) => r.heapAfter),
    // Of the first process: the processes run alike.
    p50: first.p50,
    p99: first.p99,
    closeMs: max((r) => r.closeMs),
    inFlightAtReset: sum((r) => r.inFlightAtReset),
    exitMs: max((r) => r.exitMs),
  };
}

/** Every run: each contender, with and without signals, in one process and in two. */
export async function runOverload(options: OverloadOptions): Promise<OverloadRow[]> {
  await ensurePackageBuilt();
  const redis = await startRedisServer();
  const rows: OverloadRow[] = [];
  try {
    for (const processes of [1, 2]) {
      for (const contender of ['sdk', 'ky'] as const) {
        for (const signals of [false, true]) {
          // A fresh server for every run: a key banned in one run must not weigh on the next.
          const server = await startCliServer([
            '--key',
            KEY,
            '--plan',
            '1000/100000000',
            '--limit',
            String(options.limit),
            '--window',
            String(options.windowMs),
          ]);
          try {
            // Twice the plan in all, shared by the processes.
            const rate = (2 * options.limit * 1000) / options.windowMs / processes;
            const args = [
              `--contender=${contender}`,
              `--url=${server.url}`,
              `--key=${KEY}`,
              `--rate=${rate}`,
              `--seconds=${options.seconds}`,
              `--caller-timeout-ms=${options.callerTimeoutMs}`,
              `--limit=${options.limit}`,
              ...(signals ? ['--signals'] : []),
              ...(processes > 1 && contender === 'sdk' ? [`--redis-url=${redis.url}`] : []),
            ];
            const results = await Promise.all(Array.from({ length: processes }, () => runOne(args)));
            rows.push(combine(results));
          } finally {
            await server.stop();
          }
        }
      }
    }
  } finally {
    await redis.stop();
  }
  return rows;
}

const mb = (bytes: number) => formatNumber(bytes / 1024 / 1024, 1);
const ms = (value: number) => formatNumber(value);

/** The rows as the console and docs/benchmarks.md show them. */
export function overloadTable(rows: readonly OverloadRow[], options: OverloadOptions): string {
  const header = [
    'Contender',
    'Requests per useful answer',
    '429s',
    'Useful / calls',
    'Refused / closed',
    'Peak waiting',
    'Heap before / at peak / after (MB)',
    'p50 / p99 answered (ms)',
    'Sent after demand',
    'close() to exit (ms)',
    'In flight at a reset',
  ];
  const body = rows.map((row) => [
    `${row.contender === 'sdk' ? 'SDK defaults' : 'ky + zod, 429 by hand'}${row.processes > 1 ? `, ${row.processes} processes${row.contender === 'sdk' ? ' (Redis)' : ''}` : ''}, ${row.signals ? 'signals' : 'no signals'}`,
    row.useful === 0 ? '∞' : formatNumber(row.requests / row.useful, 2),
    formatNumber(row.refused429),
    `${formatNumber(row.useful)} / ${formatNumber(row.calls)}`,
    `${formatNumber(row.refused)} / ${formatNumber(row.closed)}`,
    formatNumber(row.peakWaiting),
    `${mb(row.heapBefore)} / ${mb(row.heapAtPeak)} / ${mb(row.heapAfter)}`,
    `${ms(row.p50)} / ${ms(row.p99)}`,
    formatNumber(row.sentAfterDemand),
    ms(row.exitMs),
    formatNumber(row.inFlightAtReset),
  ]);
  const rate = (2 * options.limit * 1000) / options.windowMs;
  return `Overload: ${formatNumber(rate)} calls/s for ${options.seconds} s against ${options.limit} requests per ${formatNumber(options.windowMs / 1000, 1)} s (twice the plan), then none; callers give up after ${formatNumber(options.callerTimeoutMs / 1000, 1)} s\n${formatTable(header, body)}`;
}
