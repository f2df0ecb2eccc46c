/**
 * What a fleet run came to, read from the fake store's request log alone: how many requests, how many
 * were refused with 429, how many rate-limit windows the run used against the fewest its requests
 * needed, and when requests arrived.
 *
 * @module
 */
import type { RecordedRequest } from '../../../src/testing/index.js';
import type { FleetPlan } from './fleet.js';

/** The figures of one run. */
export interface FleetOutcome {
  /** Requests the store received. */
  readonly requests: number;
  /** Of them, answered 2xx. */
  readonly succeeded: number;
  /** Of them, answered 429. */
  readonly refused: number;
  /** Of them, answered with another status, or not answered (a dropped connection). */
  readonly other: number;
  /** Windows the run used: the fake's fixed windows, each opened by the first counted request after the previous one ended. */
  readonly windowsUsed: number;
  /** The fewest windows the counted requests need: ceil(counted / limit). */
  readonly windowsMinimum: number;
  /** From the first request to the last, in milliseconds. */
  readonly spanMs: number;
}

/** Whether the store counted the request against the key: answered, and not with 429 or 401. */
export function counts(request: RecordedRequest): boolean {
  return request.status !== undefined && request.status !== 429 && request.status !== 401;
}

/** The start of every window the requests opened, by the fake's rule (fixed windows, opened on demand). */
export function windowStarts(requests: readonly RecordedRequest[], plan: FleetPlan): number[] {
  const starts: number[] = [];
  for (const request of [...requests].sort((a, b) => a.receivedAt - b.receivedAt)) {
    if (!counts(request)) continue;
    const current = starts.at(-1);
    if (current === undefined || request.receivedAt >= current + plan.windowMs)
      starts.push(request.receivedAt);
  }
  return starts;
}

/** The figures of a run, from the store's request log. */
export function fleetOutcome(requests: readonly RecordedRequest[], plan: FleetPlan): FleetOutcome {
  const succeeded = requests.filter(
    (r) => r.status !== undefined && r.status >= 200 && r.status < 300,
  ).length;
  const refused = requests.filter((r) => r.status === 429).length;
  const counted = requests.filter(counts).length;
  const times = requests.map((r) => r.receivedAt);
  return {
    requests: requests.length,
    succeeded,
    refused,
    other: requests.length - succeeded - refused,
    windowsUsed: windowStarts(requests, plan).length,
    windowsMinimum: Math.ceil(counted / plan.limit),
    spanMs: times.length === 0 ? 0 : Math.max(...times) - Math.min(...times),
  };
}

/** The requests received between two moments of the store's clock (both excluded). */
export function receivedBetween(
  requests: readonly RecordedRequest[],
  from: number,
  to: number,
): RecordedRequest[] {
  return requests.filter((request) => request.receivedAt > from && request.receivedAt < to);
}

/** How many 429s each worker drew, by its `X-Fleet-Worker` name. */
export function refusedByWorker(requests: readonly RecordedRequest[]): Map<string, number> {
  const refused = new Map<string, number>();
  for (const request of requests) {
    if (request.status !== 429) continue;
    const worker = request.headers['x-fleet-worker'] ?? 'unknown';
    refused.set(worker, (refused.get(worker) ?? 0) + 1);
  }
  return refused;
}
