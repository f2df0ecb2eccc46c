/**
 * The peer table as `npm run bench` prints it, and its headline: the SDK's CPU per call over
 * ky + zod's, raw fetch's and openapi-fetch + zod's.
 *
 * @module
 */
import { formatNumber, formatTable } from '../table.js';
import { PEERS } from './contenders.js';
import { type CpuRatio, cpuRatio, type PeerResult, type PeerService } from './measure.js';

/** The ratios the headline gives, per workload. */
export interface PeerHeadline {
  readonly workload: string;
  readonly sdkOverKyZod: CpuRatio;
  readonly sdkOverRawFetch: CpuRatio;
  readonly sdkOverOpenapiFetchZod: CpuRatio;
}

export function peerHeadline(results: readonly PeerResult[]): PeerHeadline[] {
  return results.map((result) => ({
    workload: result.workload.name,
    sdkOverKyZod: cpuRatio(result, 'ky + zod'),
    sdkOverRawFetch: cpuRatio(result, 'raw fetch'),
    sdkOverOpenapiFetchZod: cpuRatio(result, 'openapi-fetch + zod'),
  }));
}

/** What each run's first table says of where the service answered. */
const SERVICE_NOTE: Record<PeerService, string> = {
  loopback: 'the server runs in another process',
  'in-process': "the service answers in the calling process, so no socket's work is counted",
};

export function peerTable(results: readonly PeerResult[], where: PeerService = 'loopback'): string {
  const names = results[0]?.figures.map((figure) => figure.name) ?? [...PEERS];
  const header = ['workload', ...names];
  const cells = (pick: (result: PeerResult, name: string) => string) =>
    results.map((result) => [result.workload.name, ...names.map((name) => pick(result, name))]);
  const of = (result: PeerResult, name: string) => result.figures.find((entry) => entry.name === name);
  return [
    `Peers: CPU time of the calling process per call, µs (median of 20 rounds; user + system; ${SERVICE_NOTE[where]})`,
    formatTable(
      header,
      cells((result, name) => formatNumber(of(result, name)?.cpuMicrosecondsPerCall ?? Number.NaN)),
    ),
    '',
    'Peers: calls per second',
    formatTable(
      header,
      cells((result, name) => formatNumber(of(result, name)?.callsPerSecond ?? Number.NaN)),
    ),
    '',
    "The SDK's CPU per call over each peer's: the median of the ratios within each round (in parentheses, their quartiles)",
    formatTable(
      ['workload', '/ ky + zod', '/ raw fetch', '/ openapi-fetch + zod'],
      peerHeadline(results).map((row) => [
        row.workload,
        ratioText(row.sdkOverKyZod),
        ratioText(row.sdkOverRawFetch),
        ratioText(row.sdkOverOpenapiFetchZod),
      ]),
    ),
  ].join('\n');
}

/** `1.02 (0.97–1.08)`. */
function ratioText({ median, low, high }: CpuRatio): string {
  return `${median.toFixed(2)} (${low.toFixed(2)}–${high.toFixed(2)})`;
}
