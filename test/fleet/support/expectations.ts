/**
 * The assertions every fleet run must pass, from the store's request log and the workers' results.
 *
 * @module
 */
import { expect } from 'vitest';
import type { RecordedRequest } from '../../../src/testing/index.js';
import type { FleetPlan, RunResult } from './fleet.js';
import { type FleetOutcome, fleetOutcome } from './outcome.js';

/**
 * How long a window lasts as a client sees it: `X-RateLimit-Reset` is in whole seconds, rounded up,
 * so a client may wait up to a second past the actual reset.
 */
export function windowAsSeenMs(plan: FleetPlan): number {
  return plan.windowMs + 1_000;
}

/**
 * Every call succeeded; the store refused at most one request, or `maxRefused` where processes pace
 * alone by design (so it never banned the key, which takes more than 10 requests while limited); and the run used, and took, at most one window more
 * than its requests need: `extraWindows` more, and `extraMs` longer, where a fault costs time by
 * design (a lease to expire, a cooldown, an outage).
 */
export function expectBudgetKept(
  requests: readonly RecordedRequest[],
  plan: FleetPlan,
  results: readonly RunResult[],
  {
    extraWindows = 0,
    extraMs = 0,
    expectedCalls,
    maxRefused = 1,
  }: { extraWindows?: number; extraMs?: number; expectedCalls?: number; maxRefused?: number } = {},
): FleetOutcome {
  const outcome = fleetOutcome(requests, plan);
  const failures = results.flatMap((result) => result.failures);
  expect(failures, 'every call succeeds').toEqual([]);
  if (expectedCalls !== undefined) {
    expect(results.reduce((sum, result) => sum + result.ok, 0)).toBe(expectedCalls);
  }
  expect(outcome.refused, `at most ${maxRefused} 429s in the whole run`).toBeLessThanOrEqual(maxRefused);
  expect(outcome.windowsUsed, 'windows used against the fewest needed').toBeLessThanOrEqual(
    outcome.windowsMinimum + 1 + extraWindows,
  );
  // The first request opens the first window; the last one falls in window minimum + 1 at the latest,
  // that is before it ends: on a busy machine a window's requests spread over the whole window.
  expect(outcome.spanMs, 'time taken against the fewest windows needed').toBeLessThanOrEqual(
    (outcome.windowsMinimum + extraWindows) * windowAsSeenMs(plan) + plan.windowMs + extraMs,
  );
  return outcome;
}
