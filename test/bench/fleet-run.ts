/**
 * The fleet outcome: several processes on one key against the fake store's HTTP server with a short
 * window, once pacing each by itself (every process its own client, as without a shared store) and
 * once sharing one budget through Redis. Figures from the store's request log, and a drawing of each
 * run.
 *
 * @module
 */

import { type FleetPlan, startFleet, startWorkers, stopEverything, within } from '../fleet/support/fleet.js';
import { fleetOutcome, windowStarts } from '../fleet/support/outcome.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { drawFleet } from './fleet-svg.js';

/** 10 requests per 3 s window, the plan of the drawing. */
export const FLEET_PLAN: FleetPlan = { limit: 10, windowMs: 3_000 };
const PROCESSES = 4;
const CALLS_PER_PROCESS = 10;
const CONCURRENCY = 3;
const RUN_LIMIT_MS = 120_000;

/** How pacing was shared in a run. */
export type FleetMode = 'per-process' | 'redis';

/** The figures of one fleet run. */
export interface FleetRunResult {
  readonly mode: FleetMode;
  readonly processes: number;
  readonly calls: number;
  readonly succeededCalls: number;
  readonly requests: number;
  readonly refused: number;
  readonly keyBanned: boolean;
  readonly windowsUsed: number;
  readonly windowsMinimum: number;
  readonly seconds: number;
  /** The drawing of the run, an SVG document. */
  readonly svg: string;
}

/** Runs the fleet once in `mode`. */
export async function runFleet(mode: FleetMode): Promise<FleetRunResult> {
  await ensurePackageBuilt();
  try {
    const { fake, config } = await startFleet(mode === 'redis' ? 'redis' : 'none', FLEET_PLAN);
    const workers = await startWorkers(PROCESSES, { ...config(), name: 'process' });
    const started = performance.now();
    const results = await within(
      Promise.all(
        workers.map((worker) => worker.run({ calls: CALLS_PER_PROCESS, concurrency: CONCURRENCY })),
      ),
      RUN_LIMIT_MS,
      `the ${mode} fleet run`,
    );
    const seconds = (performance.now() - started) / 1000;
    const requests = fake.store.requests;
    const outcome = fleetOutcome(requests, FLEET_PLAN);
    const failures = results.flatMap((result) => result.failures);
    const keyBanned = failures.some((failure) => failure.code === 'api_key_banned');
    const succeededCalls = results.reduce((sum, result) => sum + result.ok, 0);
    const title =
      mode === 'redis'
        ? `${PROCESSES} processes, one key, pacing shared through Redis`
        : `${PROCESSES} processes, one key, each pacing by itself`;
    const subtitle =
      `${FLEET_PLAN.limit} requests per ${FLEET_PLAN.windowMs / 1000} s window; ` +
      `${succeededCalls} of ${PROCESSES * CALLS_PER_PROCESS} calls succeeded; ` +
      `${outcome.requests} requests, ${outcome.refused} answered 429` +
      `${keyBanned ? ', key banned' : ''}; ${outcome.windowsUsed} windows used, ${outcome.windowsMinimum} needed`;
    const svg = drawFleet({
      title,
      subtitle,
      requests,
      laneOf: (request) => request.headers['x-fleet-worker'] ?? 'unknown',
      windowStarts: windowStarts(requests, FLEET_PLAN),
      windowMs: FLEET_PLAN.windowMs,
    });
    return {
      mode,
      processes: PROCESSES,
      calls: PROCESSES * CALLS_PER_PROCESS,
      succeededCalls,
      requests: outcome.requests,
      refused: outcome.refused,
      keyBanned,
      windowsUsed: outcome.windowsUsed,
      windowsMinimum: outcome.windowsMinimum,
      seconds,
      svg,
    };
  } finally {
    await stopEverything();
  }
}
