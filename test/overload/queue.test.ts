/**
 * The queue under demand above the plan, on fake time: every call's time bound, admission before
 * waiting, the cap on waiting calls, what `client.queue` reads, and the refusals' debug lines.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, type Pet, RefusedError } from '../../src/index.js';
import { API_KEY, setup } from '../client/setup.js';
import { settle, startFakeClock } from '../support/fake-clock.js';

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** 10 requests per 10-second window. */
const PLAN = { perMinute: 10, perDay: 100_000, window: 10_000 };

function onPlan(options: ClientOptions = {}) {
  const debug = vi.fn<(message: string) => void>();
  // Each window's budget released at once as it opens (pacingBurst: 1), as admission's estimate has it.
  const context = setup(
    { logLevel: 'debug', pacingBurst: 1, ...options, logger: { warn: vi.fn(), info: vi.fn(), debug } },
    { apiKeys: { [API_KEY]: PLAN } },
  );
  return { ...context, debug };
}

/** What became of each call: its result or error, and how long it took. */
interface Outcome {
  readonly error?: unknown;
  readonly ms: number;
}

function track(call: () => Promise<unknown>, outcomes: Outcome[]): void {
  const started = Date.now();
  call().then(
    () => outcomes.push({ ms: Date.now() - started }),
    (error: unknown) => outcomes.push({ error, ms: Date.now() - started }),
  );
}

const codeOf = (outcome: Outcome) => (outcome.error as { code?: string } | undefined)?.code;

describe('with default options, under demand above the plan', () => {
  it('waits no call in the queue past maxQueueWait, and the queue stops growing', async () => {
    const { client, store } = onPlan();
    const outcomes: Outcome[] = [];
    const waiting: number[] = [];
    // Three calls a second against one a second allowed, for three minutes.
    for (let second = 0; second < 180; second++) {
      for (let i = 0; i < 3; i++) track(() => client.listPets(), outcomes);
      await vi.advanceTimersByTimeAsync(1_000);
      waiting.push(client.queue.waiting);
    }
    const peakFirstMinute = Math.max(...waiting.slice(0, 60));
    const peakLater = Math.max(...waiting.slice(90));
    // The bound (120 s in all) caps the queue at what the plan serves in two minutes, give or take a window.
    expect(peakLater).toBeLessThanOrEqual(peakFirstMinute + 10);
    expect(peakLater).toBeLessThanOrEqual(120 + 10);
    const answered = outcomes.filter((outcome) => outcome.error === undefined);
    // Two minutes, and the two seconds by which whole-second headers may place a reset late.
    expect(Math.max(...answered.map((outcome) => outcome.ms))).toBeLessThanOrEqual(122_000);
    // The service never refused: everything over the plan was refused by the client, nothing sent.
    expect(store.requests.map((request) => request.status)).not.toContain(429);
    const refused = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(refused.length).toBeGreaterThan(0);
    for (const { error } of refused) {
      expect(error).toBeInstanceOf(RefusedError);
      expect(error).toMatchObject({ code: 'client_deadline', sent: 'no' });
    }
  });
});

describe('a call that cannot start within its bound', () => {
  it('is refused at once, before waiting, saying why and that nothing was sent', async () => {
    const { client, store, debug } = onPlan();
    await settle(Promise.all(Array.from({ length: 10 }, () => client.listPets())));
    expect(client.rateLimit?.remaining).toBe(0);
    const outcomes: Outcome[] = [];
    track(() => client.listPets({}, { callTimeout: 2_000 }), outcomes);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes).toHaveLength(1);
    const [{ error, ms } = { ms: -1 }] = outcomes;
    expect(ms).toBe(0);
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toMatchObject({ code: 'client_deadline', sent: 'no' });
    expect(error).not.toHaveProperty('status');
    expect((error as Error).message).toMatch(
      /would wait 10 s or more to start, beyond callTimeout or maxQueueWait \(2 s left\); nothing was sent/,
    );
    expect(store.requests).toHaveLength(10);
    expect(debug.mock.calls.filter(([line]) => line.includes('refused (client_deadline)'))).toHaveLength(1);
  });

  it('counts the calls ahead: of three behind a spent window, those the next window serves in time wait', async () => {
    const { client } = onPlan({ callTimeout: 15_000 });
    // Two windows seen one after the other: the client knows a window lasts 10 s.
    await settle(Promise.all(Array.from({ length: 10 }, () => client.listPets())));
    await settle(client.listPets());
    await settle(Promise.all(Array.from({ length: 9 }, () => client.listPets())));
    expect(client.rateLimit?.remaining).toBe(0);
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 25; i++) track(() => client.listPets(), outcomes);
    await vi.advanceTimersByTimeAsync(0);
    // 10 go at the reset (within 10 s), the next 10 a window later (within 20 s, past 15 s): refused now.
    expect(outcomes).toHaveLength(15);
    expect(outcomes.every((outcome) => codeOf(outcome) === 'client_deadline' && outcome.ms === 0)).toBe(true);
    expect(client.queue.waiting).toBe(10);
    await vi.advanceTimersByTimeAsync(11_000);
    expect(outcomes.filter((outcome) => outcome.error === undefined)).toHaveLength(10);
  });

  it('is refused at once when its turn is a window later, the first request having shown how long a window lasts', async () => {
    const { client } = onPlan();
    await settle(Promise.all(Array.from({ length: 10 }, () => client.listPets())));
    const outcomes: Outcome[] = [];
    // The reset is 10 s away, and a window lasts at least the first request's reset less a second:
    // 10 are ahead of the 11th, whose turn comes a window later, past its 12 s.
    for (let i = 0; i < 11; i++) track(() => client.listPets({}, { callTimeout: 12_000 }), outcomes);
    await vi.advanceTimersByTimeAsync(0);
    expect(client.queue.waiting).toBe(10);
    await vi.advanceTimersByTimeAsync(12_500);
    expect(outcomes.filter((outcome) => outcome.error === undefined)).toHaveLength(10);
    const refused = outcomes.filter((outcome) => codeOf(outcome) === 'client_deadline');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.ms).toBe(0);
  });

  it('is refused when its bound ends while it waits, and its signal ends the wait too', async () => {
    let answer: (() => void) | undefined;
    const { client, store } = onPlan({
      fetch: async (input, init) => {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return store.fetch(input, init);
      },
    });
    const outcomes: Outcome[] = [];
    // The first call goes alone to learn the budget and hangs; the others wait for its answer.
    const first = client.listPets();
    const controller = new AbortController();
    track(() => client.listPets({}, { signal: controller.signal }), outcomes);
    track(() => client.listPets({}, { callTimeout: 1_000 }), outcomes);
    await vi.advanceTimersByTimeAsync(500);
    controller.abort();
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes[0]).toMatchObject({ ms: 500, error: { name: 'APIUserAbortError', sent: 'no' } });
    await vi.advanceTimersByTimeAsync(500);
    // Refused at its bound, while the request that learns the budget is still out.
    expect(outcomes[1]).toMatchObject({ ms: 1_000, error: { code: 'client_deadline', sent: 'no' } });
    expect(String((outcomes[1]?.error as Error | undefined)?.message)).toMatch(/callTimeout or maxQueueWait/);
    expect(client.queue.waiting).toBe(0);
    answer?.();
    await first;
    expect(store.requests).toHaveLength(1);
  });

  it('ends an attempt with the call: callTimeout caps each attempt and the retries', async () => {
    const { client, store } = onPlan({ callTimeout: 3_000, maxRetries: 5 });
    store.injectFault({ status: 503, times: 10 });
    const { error, elapsed } = await settle(client.listPets());
    expect(error).toMatchObject({ name: 'InternalServerError', sent: 'yes' });
    expect(elapsed).toBeLessThanOrEqual(3_000);
  });
});

describe('maxQueued', () => {
  it('refuses the call beyond the cap at once with client_queue_full', async () => {
    const { client } = onPlan({ maxQueued: 3 });
    const spend = async () => {
      for (let i = 0; i < 10; i++) await client.listPets();
    };
    await settle(spend());
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 5; i++) track(() => client.listPets(), outcomes);
    await vi.advanceTimersByTimeAsync(0);
    expect(outcomes.map(codeOf)).toEqual(['client_queue_full', 'client_queue_full']);
    expect(String((outcomes[0]?.error as Error | undefined)?.message)).toMatch(
      /3 calls already wait \(maxQueued\); nothing was sent/,
    );
    // A wait a service can pass on as Retry-After: when the window that serves the calls ahead resets.
    const retryAfterMs = (outcomes[0]?.error as RefusedError | undefined)?.retryAfterMs ?? 0;
    const resetInMs = (client.rateLimit?.reset.getTime() ?? 0) - Date.now();
    expect(retryAfterMs).toBeGreaterThanOrEqual(resetInMs - 1_000);
    expect(retryAfterMs).toBeLessThanOrEqual(resetInMs + 1_000);
    expect(client.queue.waiting).toBe(3);
  });

  it('is checked with the other options: a number of 1 or more', () => {
    expect(() => onPlan({ maxQueued: 0 })).toThrow(/maxQueued/);
    expect(() => onPlan({ callTimeout: -1 })).toThrow(/callTimeout/);
  });
});

describe('client.queue', () => {
  it('reads the calls waiting, the requests in flight and how long the oldest has waited', async () => {
    let answer: (() => void) | undefined;
    const { client, store } = onPlan({
      fetch: async (input, init) => {
        await new Promise<void>((resolve) => {
          answer = resolve;
        });
        return store.fetch(input, init);
      },
    });
    expect(client.queue).toEqual({ waiting: 0, inFlight: 0, oldestWaitMs: 0, closed: false });
    const calls: Promise<Pet[]>[] = [client.listPets(), client.listPets()];
    await vi.advanceTimersByTimeAsync(0);
    // The first goes alone to learn the budget; the second waits for its answer.
    await vi.advanceTimersByTimeAsync(400);
    expect(client.queue).toEqual({ waiting: 1, inFlight: 1, oldestWaitMs: 400, closed: false });
    answer?.();
    await vi.advanceTimersByTimeAsync(50);
    answer?.();
    await Promise.all(calls);
    expect(client.queue).toEqual({ waiting: 0, inFlight: 0, oldestWaitMs: 0, closed: false });
  });
});
