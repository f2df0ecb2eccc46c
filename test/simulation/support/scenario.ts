/**
 * A simulated run, drawn whole before it starts: the plan and window, the clients and their
 * options, the callers (when each arrives, what it calls, its bound, when it leaves) and the mix of
 * faults. What a run draws as it goes (which attempt meets which fault, the client's jitter) comes
 * from `seed`, so the same scenario always gives the same run.
 */
import fc from 'fast-check';
import { FAULT_NAMES, type FaultName } from './faults.js';
import { seededRandom } from './random.js';

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
  readonly maxQueueWait: number;
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
    maxQueueWait: fc.integer({ min: 0, max: 20_000 }),
    pacingBurst: fc.double({ min: 0.05, max: 1, noNaN: true }),
    callTimeout: fc.integer({ min: 500, max: 30_000 }),
  },
  { requiredKeys: ['timeout', 'maxRetries', 'maxQueueWait'] },
);

/** One stretch of demand: a burst (all at once) or a steady stream, at some multiple of the plan's rate. */
interface Stretch {
  readonly start: number;
  readonly count: number;
  /** The stream's rate over the plan's: 0.3 is well below, 3 well above; a burst has none. */
  readonly rate?: number | undefined;
}

const OPERATIONS: readonly Operation[] = ['listPets', 'listPets', 'getPet', 'createPet'];

/**
 * The stretches' callers. Each one's client, operation, bound and leaving come from the seed, not
 * from fast-check: drawn one by one they cost as much as the runs (every property draws every
 * scenario), and a failure shrinks well enough by stretch and count.
 */
function callers(base: Omit<Scenario, 'calls'>, stretches: readonly Stretch[]): CallPlan[] {
  const random = seededRandom(base.seed ^ 0x2545f491);
  const calls = stretches.flatMap(({ start, count, rate }) =>
    Array.from({ length: count }, (_, index): CallPlan => {
      const at =
        rate === undefined ? start : start + Math.round((index * base.windowMs) / (base.limit * rate));
      const client = random.int(0, base.clients.length - 1);
      const operation = random.pick(OPERATIONS);
      const callTimeout = random.next() < 0.7 ? random.int(100, 30_000) : undefined;
      const abortAfter = random.next() < 0.5 ? random.int(0, 20_000) : undefined;
      return { at, client, operation, callTimeout, abortAfter };
    }),
  );
  return calls.sort((a, b) => a.at - b.at);
}

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
      .array(
        fc.record(
          {
            start: fc.integer({ min: 0, max: 3 * base.windowMs }),
            count: fc.integer({ min: 1, max: base.limit + 4 }),
            rate: fc.double({ min: 0.3, max: 3, noNaN: true }),
          },
          { requiredKeys: ['start', 'count'] },
        ),
        { minLength: 1, maxLength: 2 },
      )
      .map((stretches) => {
        const drawn = { ...base, faults: base.faultRate === 0 ? [] : base.faults };
        return { ...drawn, calls: callers(drawn, stretches) };
      }),
  );

/** The bound a call runs under: its own `callTimeout`, else its client's; and its client's `maxQueueWait`. */
export function boundOf(scenario: Scenario, call: CallPlan): { callTimeout?: number; maxQueueWait: number } {
  const client = scenario.clients[call.client] as ClientPlan;
  const callTimeout = call.callTimeout ?? client.callTimeout;
  return callTimeout === undefined
    ? { maxQueueWait: client.maxQueueWait }
    : { callTimeout, maxQueueWait: client.maxQueueWait };
}
