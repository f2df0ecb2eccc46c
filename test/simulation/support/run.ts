/**
 * Runs one scenario on fake time: the fake store (its limiter, its clock skewed from the host's),
 * one client or two sharing an in-process store, the callers on timers, and each attempt's fault
 * drawn from the scenario's seed. Returns what happened, for the properties to judge.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { vi } from 'vitest';
import type { RateLimitWait } from '../../../src/core/types.js';
import { PetStoreClient, PetStoreError, type RequestOptions } from '../../../src/index.js';
import { createInProcessRateLimitStore } from '../../../src/store/index.js';
import { createFakePetStore, type RecordedRequest, samplePets } from '../../../src/testing/index.js';
import { FAULT_KINDS, type FaultName } from './faults.js';
import { seededRandom } from './random.js';
import { boundOf, type CallPlan, type Scenario } from './scenario.js';

const KEY = 'sim-key';
const CALL_HEADER = 'x-sim-call';
const ATTEMPT_HEADER = 'x-sim-attempt';
/** Noon UTC on a fixed day; a run starts `phaseMs` after it. */
const EPOCH = Date.UTC(2026, 10, 22, 12, 0, 0);
/** A run still unsettled this long after its last caller arrived is stopped: its calls never settled. */
const GIVE_UP_MS = 15 * 60_000;

export interface CallRecord {
  readonly id: number;
  readonly plan: CallPlan;
  readonly bound: { readonly callTimeout?: number; readonly maxQueueWait: number };
  /** Milliseconds from the run's start, on the host's clock, as every time in a trace. */
  readonly arrivedAt: number;
  abortedAt?: number;
  settledAt?: number;
  /** `ok`, or the error's `code` (a `PetStoreError` without one: its name). */
  outcome?: string;
  sent?: string;
  /** The error's message, for a failed call. */
  message?: string;
}

export interface AttemptRecord {
  readonly id: number;
  readonly call: number;
  readonly client: number;
  /** Where the attempt falls among attempts and waits, for ordering events of the same instant. */
  readonly seq: number;
  readonly sentAt: number;
  readonly fault: FaultName | undefined;
  /** When `fetch` resolved with a response. */
  answeredAt?: number;
  /** When its answer ended: the body read to the end, or the fetch or body failed or was cancelled. */
  endedAt?: number;
  status?: number;
  /** No whole answer reached the client: lost, stalled, cut, a connection error, or left by a timeout or abort. */
  silent: boolean;
}

export interface WaitRecord {
  readonly seq: number;
  readonly at: number;
  readonly client: number;
  readonly reason: RateLimitWait['reason'];
  readonly waitMs: number;
  /** The call that waits, from the wait channel; undefined when the two reports could not be paired. */
  call?: number | undefined;
}

export interface ServiceRequest {
  /** The attempt it carried (`AttemptRecord.id`). */
  readonly attempt: number;
  readonly receivedAt: number;
  /** The answer the store made (sent, or spoiled on its way back by a fault after the operation). */
  readonly answeredAt?: number | undefined;
  readonly status?: number | undefined;
  /** The Error body's `code`. */
  readonly code?: string | undefined;
  /** `X-RateLimit-Reset` (unix seconds, the service's clock) and `X-RateLimit-Remaining`. */
  readonly reset?: number | undefined;
  readonly remaining?: number | undefined;
  /** `Retry-After`, in seconds. */
  readonly retryAfter?: number | undefined;
}

export interface Trace {
  readonly scenario: Scenario;
  readonly calls: readonly CallRecord[];
  readonly attempts: readonly AttemptRecord[];
  readonly waits: readonly WaitRecord[];
  /** What the service made of each request it received, on the host's clock from the run's start. */
  readonly requests: readonly ServiceRequest[];
  readonly petNames: readonly string[];
  /** `onWait` reports the wait channel did not match one to one (the harness cannot name their call). */
  readonly unpairedWaits: number;
  /** When the run stopped, and how many times it moved the clock to the next timer. */
  readonly endedAt: number;
  readonly steps: number;
}

export async function runScenario(scenario: Scenario): Promise<Trace> {
  vi.useRealTimers();
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  const start = EPOCH + scenario.phaseMs;
  vi.setSystemTime(start);
  const faultRandom = seededRandom(scenario.seed);
  const jitter = seededRandom(scenario.seed ^ 0x5bd1e995);
  // The client's backoff jitter reads Math.random: seeded here, so that a scenario replays exactly.
  const realRandom = Math.random;
  Math.random = jitter.next;
  const now = () => Date.now() - start;

  const serviceNow = () => Date.now() + scenario.skewMs;
  const store = createFakePetStore({
    apiKeys: { [KEY]: { perMinute: scenario.limit, perDay: 1_000_000, window: scenario.windowMs } },
    pets: samplePets(3),
    now: serviceNow,
    requestIdSeed: scenario.seed,
  });
  const calls: CallRecord[] = [];
  const attempts: AttemptRecord[] = [];
  const waits: WaitRecord[] = [];
  let seq = 0;
  let unpairedWaits = 0;
  const unpaired: WaitRecord[] = [];
  const traces = new WeakMap<object, number>();
  let starting: number | undefined;

  const onStart = (context: unknown) => {
    if (starting !== undefined) traces.set(context as object, starting);
  };
  const onWaitMessage = (message: unknown) => {
    const wait = unpaired.shift();
    if (wait === undefined) {
      unpairedWaits += 1;
      return;
    }
    wait.call = traces.get((message as { call: object }).call);
  };
  subscribe('tracing:animal-store-sdk:operation:start', onStart);
  subscribe('animal-store-sdk:wait', onWaitMessage);

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const call = Number(request.headers.get(CALL_HEADER));
    const fault = faultRandom.next() < scenario.faultRate ? faultRandom.pick(scenario.faults) : undefined;
    const attempt: AttemptRecord = {
      id: attempts.length,
      call,
      client: calls[call]?.plan.client ?? -1,
      seq: seq++,
      sentAt: now(),
      fault,
      silent: false,
    };
    attempts.push(attempt);
    const headers = new Headers(request.headers);
    headers.set(ATTEMPT_HEADER, String(attempt.id));
    if (fault !== undefined) {
      store.injectFault({
        ...FAULT_KINDS[fault].fault(faultRandom),
        times: 1,
        match: { headers: { [ATTEMPT_HEADER]: String(attempt.id) } },
      });
    }
    const end = (silent: boolean) => {
      if (attempt.endedAt !== undefined) return;
      attempt.endedAt = now();
      attempt.silent = silent;
    };
    let response: Response;
    try {
      response = await store.fetch(new Request(request, { headers }));
    } catch (error) {
      end(true);
      throw error;
    }
    attempt.status = response.status;
    attempt.answeredAt = now();
    // The service's clock, as the fake's HTTP server sends it (store.fetch sends no Date).
    const answerHeaders = new Headers(response.headers);
    if (!answerHeaders.has('date')) answerHeaders.set('date', new Date(serviceNow()).toUTCString());
    const answer = { status: response.status, statusText: response.statusText, headers: answerHeaders };
    const source = response.body;
    if (source === null) {
      end(false);
      return new Response(null, answer);
    }
    // A body the client reads through this stream tells whether the whole answer arrived.
    const reader = source.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end(false);
            controller.close();
          } else {
            controller.enqueue(value);
          }
        } catch (error) {
          end(true);
          controller.error(error);
        }
      },
      cancel(reason) {
        end(true);
        return reader.cancel(reason);
      },
    });
    return new Response(body, answer);
  };

  const rateLimitStore = scenario.clients.length > 1 ? createInProcessRateLimitStore() : undefined;
  const clients = scenario.clients.map(
    (plan, index) =>
      new PetStoreClient({
        apiKey: KEY,
        baseUrl: store.baseUrl,
        fetch,
        timeout: plan.timeout,
        maxRetries: plan.maxRetries,
        // One bound drawn for both, as maxRetryWait was before the split.
        maxRetryAfter: plan.maxQueueWait,
        maxQueueWait: plan.maxQueueWait,
        pacingBurst: plan.pacingBurst,
        callTimeout: plan.callTimeout,
        rateLimitStore,
        logLevel: 'off',
        deprecationWarnings: false,
        onWait: (wait) => {
          const record: WaitRecord = {
            seq: seq++,
            at: now(),
            client: index,
            reason: wait.reason,
            waitMs: wait.waitMs,
          };
          waits.push(record);
          unpaired.push(record);
        },
      }),
  );

  const startCall = (plan: CallPlan) => {
    const id = calls.length;
    const record: CallRecord = { id, plan, bound: boundOf(scenario, plan), arrivedAt: now() };
    calls.push(record);
    const controller = plan.abortAfter === undefined ? undefined : new AbortController();
    const options: RequestOptions = {
      headers: { [CALL_HEADER]: String(id) },
      signal: controller?.signal,
      callTimeout: plan.callTimeout,
    };
    const client = clients[plan.client] as PetStoreClient;
    starting = id;
    const promise: Promise<unknown> =
      plan.operation === 'listPets'
        ? client.listPets({}, options)
        : plan.operation === 'getPet'
          ? client.getPet(1, options)
          : client.createPet({ name: `sim-${id}`, categoryId: 1 }, options);
    starting = undefined;
    promise.then(
      () => {
        record.settledAt = now();
        record.outcome = 'ok';
      },
      (error: unknown) => {
        record.settledAt = now();
        record.outcome =
          error instanceof PetStoreError
            ? ((error as PetStoreError & { code?: string }).code ?? error.name)
            : `unexpected ${String(error)}`;
        if (error instanceof PetStoreError) record.sent = error.sent;
        record.message = error instanceof Error ? error.message : String(error);
      },
    );
    if (controller !== undefined) {
      setTimeout(() => {
        if (record.settledAt !== undefined) return;
        record.abortedAt = now();
        controller.abort();
      }, plan.abortAfter);
    }
  };
  for (const plan of scenario.calls) setTimeout(() => startCall(plan), plan.at);

  const lastArrival = scenario.calls.at(-1)?.at ?? 0;
  let steps = 0;
  let endedAt = 0;
  const settled = () =>
    calls.length === scenario.calls.length && calls.every((call) => call.settledAt !== undefined);
  try {
    while (!settled() && now() < lastArrival + GIVE_UP_MS) {
      if (vi.getTimerCount() === 0) {
        await new Promise((resolve) => setImmediate(resolve));
        if (vi.getTimerCount() === 0) break;
        continue;
      }
      steps += 1;
      await vi.advanceTimersToNextTimerAsync();
    }
    endedAt = now();
    // What the run left going (answers still dripping or stalled, their bodies' ends) finishes on
    // this run's clock, so that nothing of it runs on the next run's or draws from its Math.random.
    while (vi.getTimerCount() > 0 && now() < endedAt + GIVE_UP_MS) {
      await vi.advanceTimersToNextTimerAsync();
    }
    for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
  } finally {
    unsubscribe('tracing:animal-store-sdk:operation:start', onStart);
    unsubscribe('animal-store-sdk:wait', onWaitMessage);
    Math.random = realRandom;
    vi.clearAllTimers();
    vi.useRealTimers();
  }
  return {
    scenario,
    calls,
    attempts,
    waits,
    requests: store.requests.map((request) => serviceRequest(request, start + scenario.skewMs)),
    petNames: store.pets.map((pet) => pet.name),
    unpairedWaits: unpairedWaits + unpaired.length,
    endedAt,
    steps,
  };
}

function serviceRequest(request: RecordedRequest, serviceStart: number): ServiceRequest {
  const response = request.response;
  const header = (name: string) => {
    const value = response?.headers[name];
    return value === undefined ? undefined : Number(value);
  };
  let code: string | undefined;
  try {
    code = response === undefined ? undefined : (JSON.parse(response.body) as { code?: string }).code;
  } catch {
    code = undefined;
  }
  return {
    attempt: Number(request.headers[ATTEMPT_HEADER]),
    receivedAt: request.receivedAt - serviceStart,
    answeredAt: response === undefined ? undefined : response.answeredAt - serviceStart,
    status: response?.status,
    code,
    reset: header('x-ratelimit-reset'),
    remaining: header('x-ratelimit-remaining'),
    retryAfter: header('retry-after'),
  };
}
