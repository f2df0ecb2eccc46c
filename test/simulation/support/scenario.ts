/**
 * A simulated run, drawn whole before it starts: the plan and window, the clients and their
 * options, the callers (when each arrives, what it calls, its bound, when it leaves) and the mix of
 * faults. What a run draws as it goes (which attempt meets which fault, the client's jitter) comes
 * from `seed`, so the same scenario always gives the same run.
 */
import fc from 'fast-check';
import { FAULT_NAMES, type FaultName } from './faults.js';

export type Operation = 'listPets' | 'getPet' | 'createPet';

export interface CallPlan {
  /** Milliseconds after the run starts. */
  readonly at: number;
  /** Which client makes the call (0 or 1). */
  readonly client: number;
  readonly operation: Operation;
  /** The call's own `callTimeout`, if any. */
  readonly callTimeout?: number | undefined;
  /** The caller aborts this long after it called, if at all. */
  readonly abortAfter?: number | undefined;
}

export interface ClientPlan {
  readonly timeout: number;
  readonly maxRetries: number;
  readonly maxRetryWait: number;
  readonly pacingBurst?: number | undefined;
  readonly callTimeout?: number | undefined;
}

export interface Scenario {
  readonly seed: number;
  /** The limiter's budget per window, and the window's length. */
  readonly limit: number;
  readonly windowMs: number;
  /** The service's clock minus the host's (a skewed `Date`). */
  readonly skewMs: number;
  /** Where in a second the run starts, so that whole-second reset headers round differently. */
  readonly phaseMs: number;
  /** One client, or two sharing one in-process store. */
  readonly clients: readonly ClientPlan[];
  /** The share of attempts that meet a fault, and the kinds they draw from (evenly). */
  readonly faultRate: number;
  readonly faults: readonly FaultName[];
  readonly calls: readonly CallPlan[];
}

const clientPlan: fc.Arbitrary<ClientPlan> = fc.record(
  {
    timeout: fc.integer({ min: 200, max: 4_000 }),
    maxRetries: fc.integer({ min: 0, max: 3 }),
    maxRetryWait: fc.integer({ min: 0, max: 20_000 }),
    pacingBurst: fc.double({ min: 0.05, max: 1, noNaN: true }),
    callTimeout: fc.integer({ min: 500, max: 30_000 }),
  },
  { requiredKeys: ['timeout', 'maxRetries', 'maxRetryWait'] },
);

/** One stretch of demand: a burst (all at once) or a steady stream, at some multiple of the plan's rate. */
const demand = (limit: number, windowMs: number, clients: number) =>
  fc
    .record({
      start: fc.integer({ min: 0, max: 3 * windowMs }),
      count: fc.integer({ min: 1, max: 2 * limit + 2 }),
      /** The stream's rate over the plan's: 0.3 is well below, 3 well above; a burst has none. */
      rate: fc.option(fc.double({ min: 0.3, max: 3, noNaN: true }), { nil: undefined }),
    })
    .chain(({ start, count, rate }) =>
      fc.tuple(
        ...Array.from({ length: count }, (_, index) =>
          fc.record(
            {
              at: fc.constant(
                rate === undefined ? start : start + Math.round((index * windowMs) / (limit * rate)),
              ),
              client: fc.integer({ min: 0, max: clients - 1 }),
              operation: fc.constantFrom<Operation>('listPets', 'listPets', 'getPet', 'createPet'),
              callTimeout: fc.integer({ min: 100, max: 30_000 }),
              abortAfter: fc.integer({ min: 0, max: 20_000 }),
            },
            { requiredKeys: ['at', 'client', 'operation'] },
          ),
        ),
      ),
    );

export const scenario: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    limit: fc.integer({ min: 2, max: 8 }),
    windowMs: fc.integer({ min: 1_500, max: 12_000 }),
    skewMs: fc.oneof(fc.constant(0), fc.integer({ min: -120_000, max: 120_000 })),
    phaseMs: fc.integer({ min: 0, max: 999 }),
    clients: fc.array(clientPlan, { minLength: 1, maxLength: 2 }),
    // None, some, or every attempt (a proxy that loses every answer, say).
    faultRate: fc.oneof(fc.constant(0), fc.double({ min: 0.02, max: 0.5, noNaN: true }), fc.constant(1)),
    faults: fc.subarray(FAULT_NAMES, { minLength: 1 }),
  })
  .chain((base) =>
    fc
      .array(demand(base.limit, base.windowMs, base.clients.length), { minLength: 1, maxLength: 2 })
      .map((stretches) => ({
        ...base,
        faults: base.faultRate === 0 ? [] : base.faults,
        calls: stretches.flat().sort((a, b) => a.at - b.at),
      })),
  );

/** The bound a call runs under: its own `callTimeout`, else its client's; and its client's `maxRetryWait`. */
export function boundOf(scenario: Scenario, call: CallPlan): { callTimeout?: number; maxRetryWait: number } {
  const client = scenario.clients[call.client] as ClientPlan;
  const callTimeout = call.callTimeout ?? client.callTimeout;
  return callTimeout === undefined
    ? { maxRetryWait: client.maxRetryWait }
    : { callTimeout, maxRetryWait: client.maxRetryWait };
}
