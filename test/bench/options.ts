/**
 * The command line of `npm run bench`.
 *
 * @module
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { OVERHEAD_CASES, type OverheadCase } from './client-overhead.js';
import { OVERLOAD_DEFAULTS, type OverloadOptions } from './overload.js';
import { repoRoot } from './tsx-process.js';

export const USAGE = `Usage: npm run bench -- [options]

  --calls N           calls per contender and case (default 1000); each fake-store way in gets 40%
  --memory-calls N    calls through one client in the memory measurement (default 100000)
  --cold-starts N     fresh processes per runtime and contender in the cold-start section (default 15)
  --cold-start-baseline DIR
                      also measure the cold start of another build of the package: DIR is its root,
                      with dist/ built (e.g. a checkout of an earlier commit after npm run build)
  --variant NAME=PATH also measure another build of the SDK (overhead, peers, peers-in-process and
                      tracing sections):
                      PATH is its built dist/index.js, or its src/index.ts (repeatable)
  --sections LIST     the sections to run (comma-separated; default overhead,peers,parse): browser-weight,
                      parse, overhead, peers, peers-in-process, tracing, fake-store, memory, soak,
                      sessions, hostile, cold-start, store, fleet, overload, latency, spread; store,
                      fleet and overload start their own redis-server; browser-weight packs the package
                      and installs it; peers-in-process is peers with the service answering in process
  --peer-scale X      multiplies the calls of each peer workload (default 1: 2,000 calls, 1,000 for
                      createPet)
  --soak-requests N   requests in the soak of the animal-store-fake-server command (default 50000)
  --svg-dir DIR       where the fleet section draws its runs (default docs/images)
  --cases LIST        client overhead cases to run, as operation:concurrency (default
                      listPets:1,listPets:50,getPet:1,getPet:50)
  --overload-seconds N
                      how long the overload section's demand lasts (default 10)
  --overload-limit N  requests per window of its plan (default 20); the demand is twice the plan
  --overload-window-ms N
                      the length of its plan's window (default 2000)
  --overload-caller-timeout-ms N
                      how long its callers wait for an answer before giving up (default 5000)
  --out FILE          where to write the results (default bench-results/latest.json)
  --help              show this text
`;

export const SECTIONS = [
  'browser-weight',
  'parse',
  'overhead',
  'peers',
  'peers-in-process',
  'tracing',
  'fake-store',
  'memory',
  'soak',
  'sessions',
  'hostile',
  'cold-start',
  'store',
  'fleet',
  'overload',
  'latency',
  'spread',
] as const;
export type Section = (typeof SECTIONS)[number];

/** What `npm run bench` runs without `--sections`: a few minutes on a 2-core machine. */
export const DEFAULT_SECTIONS: readonly Section[] = ['overhead', 'peers', 'parse'];

export interface BenchOptions {
  readonly sections: readonly Section[];
  readonly cases: readonly OverheadCase[];
  readonly calls: number;
  /** Multiplies the calls of each peer workload. */
  readonly peerScale: number;
  readonly memoryCalls: number;
  readonly coldStarts: number;
  readonly coldStartBaseline: string | undefined;
  readonly soakRequests: number;
  readonly overload: OverloadOptions;
  readonly variants: readonly { readonly name: string; readonly path: string }[];
  readonly out: string;
  /** Where the fleet section writes its SVG drawings. */
  readonly svgDir: string;
  readonly help: boolean;
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a positive integer`);
  return number;
}

function positiveNumber(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!(number > 0) || !Number.isFinite(number)) throw new Error(`--${name} must be a positive number`);
  return number;
}

function sections(value: string | undefined): Section[] {
  if (value === undefined) return [...DEFAULT_SECTIONS];
  return value.split(',').map((name) => {
    const section = SECTIONS.find((known) => known === name.trim());
    if (section === undefined)
      throw new Error(`Unknown section "${name}"; the sections are ${SECTIONS.join(', ')}`);
    return section;
  });
}

function cases(value: string | undefined): OverheadCase[] {
  if (value === undefined) return [...OVERHEAD_CASES];
  return value.split(',').map((spec) => {
    const [operation, concurrency] = spec.trim().split(':');
    const overheadCase = { operation, concurrency: Number(concurrency ?? 1) };
    if (
      (overheadCase.operation !== 'listPets' && overheadCase.operation !== 'getPet') ||
      !Number.isInteger(overheadCase.concurrency) ||
      overheadCase.concurrency < 1
    ) {
      throw new Error(`--cases takes operation:concurrency (listPets:1, getPet:50, ...), got "${spec}"`);
    }
    return overheadCase as OverheadCase;
  });
}

export function parseBenchOptions(argv: readonly string[]): BenchOptions {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      calls: { type: 'string' },
      'peer-scale': { type: 'string' },
      'memory-calls': { type: 'string' },
      'cold-starts': { type: 'string' },
      'cold-start-baseline': { type: 'string' },
      'soak-requests': { type: 'string' },
      'overload-seconds': { type: 'string' },
      'overload-limit': { type: 'string' },
      'overload-window-ms': { type: 'string' },
      'overload-caller-timeout-ms': { type: 'string' },
      variant: { type: 'string', multiple: true },
      sections: { type: 'string' },
      cases: { type: 'string' },
      out: { type: 'string' },
      'svg-dir': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  const variants = (values.variant ?? []).map((spec) => {
    const separator = spec.indexOf('=');
    if (separator <= 0) throw new Error(`--variant takes NAME=PATH, got "${spec}"`);
    return { name: spec.slice(0, separator), path: resolve(spec.slice(separator + 1)) };
  });
  return {
    sections: sections(values.sections),
    cases: cases(values.cases),
    calls: positiveInteger('calls', values.calls, 1_000),
    peerScale: positiveNumber('peer-scale', values['peer-scale'], 1),
    memoryCalls: positiveInteger('memory-calls', values['memory-calls'], 100_000),
    coldStarts: positiveInteger('cold-starts', values['cold-starts'], 15),
    coldStartBaseline:
      values['cold-start-baseline'] === undefined ? undefined : resolve(values['cold-start-baseline']),
    soakRequests: positiveInteger('soak-requests', values['soak-requests'], 50_000),
    overload: {
      seconds: positiveNumber('overload-seconds', values['overload-seconds'], OVERLOAD_DEFAULTS.seconds),
      limit: positiveInteger('overload-limit', values['overload-limit'], OVERLOAD_DEFAULTS.limit),
      windowMs: positiveInteger(
        'overload-window-ms',
        values['overload-window-ms'],
        OVERLOAD_DEFAULTS.windowMs,
      ),
      callerTimeoutMs: positiveInteger(
        'overload-caller-timeout-ms',
        values['overload-caller-timeout-ms'],
        OVERLOAD_DEFAULTS.callerTimeoutMs,
      ),
    },
    variants,
    out: values.out === undefined ? resolve(repoRoot, 'bench-results/latest.json') : resolve(values.out),
    svgDir: resolve(values['svg-dir'] ?? resolve(repoRoot, 'docs/images')),
    help: values.help ?? false,
  };
}
