/**
 * The latency tail under a steady load below the plan: calls started on a fixed schedule (open
 * loop, whether or not earlier ones have answered), against the `animal-store-fake-server` command
 * over HTTP, the SDK and ky + zod in alternating rounds; p50 and p99 of each call's duration.
 *
 * @module
 */
import ky from 'ky';
import type * as Sdk from '../../src/index.js';
import { startCliServer } from './cli-server.js';
import { BENCH_API_KEY } from './constants.js';
import { ClassicPetListSchema } from './plain-schemas.js';

/** What the section runs. */
export interface OpenLoopOptions {
  /** Calls started per second, for each contender. */
  readonly rate: number;
  /** Seconds the load lasts. */
  readonly seconds: number;
  /** How many equal segments the run is cut into, for the p99 ratio of each. */
  readonly segments: number;
}

export const OPEN_LOOP_DEFAULTS: OpenLoopOptions = { rate: 100, seconds: 30, segments: 6 };

/**
 * The plan: 10,000 requests per 10 s window (1,000/s), five times the load of both contenders
 * together, so that no call is ever held for the budget, while the run sees a window reset every 10 s.
 */
export const OPEN_LOOP_PLAN = { limit: 10_000, windowMs: 10_000 } as const;

const PETS = 20;

export interface OpenLoopFigure {
  readonly name: string;
  readonly calls: number;
  readonly failures: number;
  /** Milliseconds, over the whole run. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** p99 of each segment of the run, in ms. */
  readonly segmentP99: readonly number[];
}

type Call = () => Promise<unknown>;

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/**
 * Starts the contenders' calls in turn, each `rate` times a second for `seconds`, on schedule
 * whether or not earlier calls have answered: a stall of this machine delays both alike, so the
 * figures compare the clients rather than the moments each ran in.
 */
async function openLoop(calls: readonly Call[], { rate, seconds, segments }: OpenLoopOptions) {
  const durations = calls.map(() => Array.from({ length: segments }, () => [] as number[]));
  const failures = calls.map(() => 0);
  const pending: Promise<void>[] = [];
  const start = performance.now();
  const total = rate * seconds * calls.length;
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / (rate * calls.length);
    const ahead = due - performance.now();
    if (ahead > 0) await new Promise((resolve) => setTimeout(resolve, ahead));
    const contender = i % calls.length;
    const segment = Math.floor((i * segments) / total);
    const sent = performance.now();
    pending.push(
      (calls[contender] as Call)().then(
        () => {
          durations[contender]?.[segment]?.push(performance.now() - sent);
        },
        () => {
          failures[contender] = (failures[contender] as number) + 1;
        },
      ),
    );
  }
  await Promise.all(pending);
  return { durations, failures };
}

/** Runs the section: the CLI fake on {@link OPEN_LOOP_PLAN}, the SDK with every default, ky + zod. */
export async function measureOpenLoop(
  sdk: typeof Sdk,
  options: OpenLoopOptions = OPEN_LOOP_DEFAULTS,
): Promise<OpenLoopFigure[]> {
  const server = await startCliServer([
    '--key',
    BENCH_API_KEY,
    '--plan',
    `${OPEN_LOOP_PLAN.limit}/100000000`,
    '--window',
    String(OPEN_LOOP_PLAN.windowMs),
    '--seed',
    String(PETS),
  ]);
  try {
    const client = new sdk.PetStoreClient({ apiKey: BENCH_API_KEY, baseUrl: server.url });
    const api = ky.create({ prefix: server.url, headers: { Authorization: `Bearer ${BENCH_API_KEY}` } });
    const contenders: { name: string; call: Call }[] = [
      { name: 'SDK', call: () => client.listPets({ limit: PETS }) },
      {
        name: 'ky + zod',
        call: async () =>
          ClassicPetListSchema.parse(await api.get('pets', { searchParams: { limit: PETS } }).json()),
      },
    ];
    const calls = contenders.map(({ call }) => call);
    await openLoop(calls, { rate: options.rate, seconds: 2, segments: 1 });
    const { durations, failures } = await openLoop(calls, options);
    return contenders.map(({ name }, index) => {
      const bySegment = durations[index] as number[][];
      const all = bySegment.flat();
      return {
        name,
        calls: all.length + (failures[index] as number),
        failures: failures[index] as number,
        p50: quantile(all, 0.5),
        p99: quantile(all, 0.99),
        max: Math.max(...all),
        segmentP99: bySegment.map((segment) => quantile(segment, 0.99)),
      };
    });
  } finally {
    await server.stop();
  }
}
