/**
 * The faults a simulated attempt may meet, as a table: a new kind is one row. Each row turns a
 * seeded draw into the fake's own fault (`store.injectFault`), aimed at one attempt by its header.
 */
import type { FaultOptions } from '../../../src/testing/index.js';
import type { Random } from './random.js';

export interface FaultKind {
  /** The fault the fake applies to the attempt, without `match` and `times` (the harness aims it). */
  readonly fault: (random: Random) => FaultOptions;
  /** A 429 the service sends of its own accord (a proxy, chaos), not its limiter's. */
  readonly chaos429?: true;
  /** Answered before the operation, as a proxy would: the limiter does not count the request. */
  readonly beforeOperation?: true;
}

export const FAULT_KINDS = {
  latency: { fault: (random) => ({ delay: random.int(1, 1_500) }) },
  'server-error': {
    fault: (random) => ({ status: random.pick([500, 502, 503, 504]) }),
    beforeOperation: true,
  },
  'connection-error': { fault: () => ({ networkError: true }), beforeOperation: true },
  'chaos-429': {
    fault: (random) => ({ status: 429, headers: { 'Retry-After': String(random.int(1, 3)) } }),
    chaos429: true,
    beforeOperation: true,
  },
  lost: { fault: () => ({ afterOperation: 'lost-response' }) },
  stalled: { fault: () => ({ afterOperation: 'stalled-response' }) },
  cut: { fault: () => ({ afterOperation: 'cut-body' }) },
  dripping: { fault: (random) => ({ afterOperation: 'dripping-body', dripInterval: random.int(150, 600) }) },
} as const satisfies Record<string, FaultKind>;

export type FaultName = keyof typeof FAULT_KINDS;

export const FAULT_NAMES = Object.keys(FAULT_KINDS) as FaultName[];
