/**
 * The `spread` section: what `pacingBurst` does against the `animal-store-fake-server` command on a
 * plan of 50 requests per 10 s. Above the plan (calls started at twice its rate, each caller giving
 * up after 10 s): the most requests in flight at once and sent within 250 ms (both at a window's
 * reset), and the answers per window. Below it: the time to the first and the last answer of 10
 * calls made at once by a fresh client, and p50 / p99 of calls started at random at half the plan's
 * rate.
 *
 * @module
 */
import type * as Sdk from '../../src/index.js';
import { startCliServer } from './cli-server.js';
import { BENCH_API_KEY } from './constants.js';

export const SPREAD_PLAN = { limit: 50, windowMs: 10_000 } as const;
/** The settings of `pacingBurst` compared. */
export const SPREAD_BURSTS = [1, 0.25, 0.1, 0.05] as const;

const ABOVE = { rate: 10, seconds: 25, callerTimeoutMs: 10_000 } as const;
const BELOW = { burst: 10, rate: 2.5, seconds: 20 } as const;

export interface SpreadFigure {
  readonly burst: number;
  /** Above the plan. */
  readonly peakInFlight: number;
  readonly mostIn250Ms: number;
  /** Answers of each window that the run covered whole. */
  readonly answersPerWindow: readonly number[];
  /** Below the plan: 10 calls at once. */
  readonly firstAnswerMs: number;
  readonly lastAnswerMs: number;
  /** Below the plan: calls at random at half its rate, ms. */
  readonly p50: number;
  readonly p99: number;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh fake on the plan, and a client on it with `burst`, whose requests are counted. */
async function onFreshServer<T>(
  sdk: typeof Sdk,
  burst: number,
  run: (client: Sdk.PetStoreClient, sent: { at: number; inFlight: number; reset?: number }[]) => Promise<T>,
): Promise<T> {
  const server = await startCliServer([
    '--key',
    BENCH_API_KEY,
    '--plan',
    `${SPREAD_PLAN.limit}/1000000`,
    '--window',
    String(SPREAD_PLAN.windowMs),
    '--seed',
    '10',
  ]);
  const sent: { at: number; inFlight: number; reset?: number }[] = [];
  let inFlight = 0;
  try {
    const client = new sdk.PetStoreClient({
      apiKey: BENCH_API_KEY,
      baseUrl: server.url,
      pacingBurst: burst,
      maxQueueWait: 60_000,
      logLevel: 'off',
      fetch: async (input, init) => {
        const record: (typeof sent)[number] = { at: performance.now(), inFlight: ++inFlight };
        sent.push(record);
        try {
          const response = await fetch(input, init);
          if (response.ok) record.reset = Number(response.headers.get('X-RateLimit-Reset'));
          return response;
        } finally {
          inFlight--;
        }
      },
    });
    return await run(client, sent);
  } finally {
    await server.stop();
  }
}

async function above(sdk: typeof Sdk, burst: number) {
  return onFreshServer(sdk, burst, async (client, sent) => {
    const calls: Promise<unknown>[] = [];
    const start = performance.now();
    for (let i = 0; i < ABOVE.rate * ABOVE.seconds; i++) {
      const ahead = start + (i * 1000) / ABOVE.rate - performance.now();
      if (ahead > 0) await sleep(ahead);
      // A caller that leaves settles its call with APIUserAbortError: expected here.
      calls.push(
        client
          .listPets({ limit: 10 }, { signal: AbortSignal.timeout(ABOVE.callerTimeoutMs) })
          .catch(() => {}),
      );
    }
    await Promise.all(calls);
    const times = sent.map(({ at }) => at);
    const mostIn250Ms = Math.max(...times.map((at) => times.filter((t) => t >= at && t < at + 250).length));
    const perWindow = new Map<number, number>();
    for (const { reset } of sent) if (reset) perWindow.set(reset, (perWindow.get(reset) ?? 0) + 1);
    // The first window and the last are not whole.
    const answersPerWindow = [...perWindow.entries()]
      .sort(([a], [b]) => a - b)
      .slice(1, -1)
      .map(([, answers]) => answers);
    return { peakInFlight: Math.max(...sent.map(({ inFlight }) => inFlight)), mostIn250Ms, answersPerWindow };
  });
}

async function below(sdk: typeof Sdk, burst: number) {
  return onFreshServer(sdk, burst, async (client) => {
    const start = performance.now();
    const answered: number[] = [];
    await Promise.all(
      Array.from({ length: BELOW.burst }, () =>
        client.listPets({ limit: 10 }).then(() => answered.push(performance.now() - start)),
      ),
    );
    const durations: number[] = [];
    const calls: Promise<unknown>[] = [];
    const end = performance.now() + BELOW.seconds * 1000;
    while (performance.now() < end) {
      // Exponential gaps: a Poisson stream at half the plan's rate.
      await sleep((-Math.log(1 - Math.random()) * 1000) / BELOW.rate);
      const sentAt = performance.now();
      calls.push(client.listPets({ limit: 10 }).then(() => durations.push(performance.now() - sentAt)));
    }
    await Promise.all(calls);
    return {
      firstAnswerMs: Math.min(...answered),
      lastAnswerMs: Math.max(...answered),
      p50: quantile(durations, 0.5),
      p99: quantile(durations, 0.99),
    };
  });
}

/** Runs every setting of {@link SPREAD_BURSTS}, above the plan and below it. */
export async function measureSpread(sdk: typeof Sdk): Promise<SpreadFigure[]> {
  const figures: SpreadFigure[] = [];
  for (const burst of SPREAD_BURSTS) {
    figures.push({ burst, ...(await above(sdk, burst)), ...(await below(sdk, burst)) });
  }
  return figures;
}
