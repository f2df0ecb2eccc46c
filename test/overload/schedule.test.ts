/**
 * One schedule: admission, spreading, each call's bound and the waits reported read one model of
 * the key's window, so that what a call is told when it arrives is what then happens to it. On fake
 * time against the fake store's limiter.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { type ClientOptions, RefusedError } from '../../src/index.js';
import { createInProcessRateLimitStore, type RateLimitStore } from '../../src/store/index.js';
import type { Plan } from '../../src/testing/rules/rate-limiter.js';
import { API_KEY, setup } from '../client/setup.js';
import { START, startFakeClock } from '../support/fake-clock.js';

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

interface Outcome {
  readonly ok: boolean;
  readonly error?: unknown;
  /** How long the call took to settle, in ms. */
  readonly ms: number;
}

/** A client on `plan`; every request the store received, with its status. */
function onPlan(plan: Plan, options: ClientOptions = {}) {
  const sent: number[] = [];
  const context = setup(
    {
      ...options,
      fetch: async (input, init) => {
        const response = await context.store.fetch(input, init);
        sent.push(response.status);
        return response;
      },
    },
    { apiKeys: { [API_KEY]: plan } },
  );
  return { ...context, sent };
}

const codeOf = (outcome: Outcome): unknown => (outcome.error as { code?: unknown } | undefined)?.code;

/** Records how a call settles and how long it took. */
function track(outcomes: Outcome[], promise: Promise<unknown>): void {
  const started = Date.now();
  promise.then(
    () => outcomes.push({ ok: true, ms: Date.now() - started }),
    (error: unknown) => outcomes.push({ ok: false, error, ms: Date.now() - started }),
  );
}

/** Moves fake time on in 10 ms steps until `count` outcomes are in, or `limitMs` passed. */
async function until(outcomes: Outcome[], count: number, limitMs = 600_000) {
  while (outcomes.length < count && Date.now() - START < limitMs) await vi.advanceTimersByTimeAsync(10);
}

describe('refused at once', () => {
  it('refuses nine in ten of the calls it refuses within 250 ms, and none settles past its bound', async () => {
    const { client, sent } = onPlan(
      { perMinute: 50, perDay: 100_000, window: 10_000 },
      { maxQueueWait: 5_000 },
    );
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 300; i++) {
      track(outcomes, client.listPets());
      await vi.advanceTimersByTimeAsync(50);
    }
    await until(outcomes, 300);

    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((outcome) => outcome.error instanceof RefusedError)).toBe(true);
    expect(refused.filter((outcome) => outcome.ms <= 250).length).toBeGreaterThanOrEqual(
      0.9 * refused.length,
    );
    // The bound is maxQueueWait's 5 s of waiting; an attempt on the fake takes no fake time.
    expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThanOrEqual(5_000);
    expect(sent.filter((status) => status === 429)).toEqual([]);
  });
});

describe('while one request learns the budget', () => {
  it('refuses no call whose bound ends before the next poll: its answer may come first', async () => {
    const context = setup(
      {
        maxQueueWait: 20,
        fetch: async (input, init) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          return context.store.fetch(input, init);
        },
      },
      { apiKeys: { [API_KEY]: { perMinute: 10, perDay: 1_000, window: 10_000 } } },
    );
    const outcomes: Outcome[] = [];
    track(outcomes, context.client.listPets());
    track(outcomes, context.client.listPets());
    await until(outcomes, 2, 1_000);

    expect(outcomes.map((outcome) => outcome.error)).toEqual([undefined, undefined]);
  });
});

/** `store`'s answers, arriving 200 ms after they are decided, as a store across a network's would. */
function afterRoundTrip(store: RateLimitStore): RateLimitStore {
  return {
    acquire: (scope, request) => {
      const decision = store.acquire(scope, request);
      return new Promise((resolve) => setTimeout(() => resolve(decision), 200));
    },
    release: (scope, lease, outcome) => store.release(scope, lease, outcome),
  };
}

describe('a store whose answer was decided before a 429 came back', () => {
  it('refuses the calls waiting behind a 429 that asks for hours as rate limited, not as out of time', async () => {
    const { client, store, sent } = onPlan(
      { perMinute: 10, perDay: 1_000, window: 10_000 },
      { rateLimitStore: afterRoundTrip(createInProcessRateLimitStore()) },
    );
    store.injectFault({ status: 429, headers: { 'Retry-After': String(5 * 3_600) } });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 3; i++) track(outcomes, client.listPets());
    // The first call learns the budget alone; the store's answer to the next, decided while it was
    // out (a wait for it), arrives after its 429.
    await until(outcomes, 3, 10_000);

    expect(sent).toEqual([429]);
    expect(outcomes.map((outcome) => outcome.error)).toMatchObject([
      { name: 'RateLimitError', status: 429 },
      { name: 'RefusedError', code: 'client_rate_limited' },
      { name: 'RefusedError', code: 'client_rate_limited' },
    ]);
    for (const { error } of outcomes) {
      expect((error as RefusedError).retryAfterMs).toBeGreaterThan(4 * 3_600_000);
    }
  });
});

describe("the README's 150 concurrent calls on the Free plan", () => {
  it('with maxQueueWait: 180_000, succeed in three windows with no 429', async () => {
    const { client, sent } = onPlan('free', { maxQueueWait: 180_000 });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 150; i++) track(outcomes, client.listPets());
    await until(outcomes, 150);

    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(sent).toHaveLength(150);
    expect(sent.filter((status) => status === 429)).toEqual([]);
    // Two resets waited for, a minute apart (read in whole seconds), and no third.
    const lastMs = Math.max(...outcomes.map((outcome) => outcome.ms));
    expect(lastMs).toBeGreaterThanOrEqual(120_000);
    expect(lastMs).toBeLessThan(180_000);
  });

  it('with the default bound, refuses at once the calls that cannot start within two minutes, and none later', async () => {
    vi.setSystemTime(START + 250);
    const { client, sent } = onPlan('free');
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 150; i++) track(outcomes, client.listPets());
    await until(outcomes, 150);

    const answered = outcomes.filter((outcome) => outcome.ok);
    expect(answered.length).toBeGreaterThanOrEqual(120);
    expect(answered.every((outcome) => outcome.ms <= 120_000)).toBe(true);
    const refused = outcomes.filter((outcome) => !outcome.ok);
    expect(refused.every((outcome) => outcome.ms === 0 && codeOf(outcome) === 'client_deadline')).toBe(true);
    expect(sent.filter((status) => status === 429)).toEqual([]);
  });
});

describe('spreading is a preference', () => {
  it('sends at once the calls whose bound falls before their paced turn while the budget lasts', async () => {
    const { client, sent } = onPlan({ perMinute: 10, perDay: 100_000 });
    await client.listPets();
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 20; i++) track(outcomes, client.listPets({}, { callTimeout: 5_000 }));
    await until(outcomes, 20);

    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(9);
    expect(outcomes.filter((outcome) => !outcome.ok).every((outcome) => outcome.ms <= 250)).toBe(true);
    expect(sent.filter((status) => status === 429)).toEqual([]);
  });

  it('serves five of twelve calls on five a minute with maxQueueWait: 2000', async () => {
    const { client, sent } = onPlan({ perMinute: 5, perDay: 100_000 }, { maxQueueWait: 2_000 });
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 12; i++) track(outcomes, client.listPets());
    await until(outcomes, 12);

    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(5);
    expect(sent.filter((status) => status === 429)).toEqual([]);
  });
});

describe('onWait', () => {
  it("hears of each queued call's wait once: at most three reports a call", async () => {
    const waits: RateLimitWait[] = [];
    const { client } = onPlan(
      { perMinute: 10, perDay: 100_000, window: 4_000 },
      { onWait: (wait) => waits.push(wait) },
    );
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 40; i++) track(outcomes, client.listPets());
    await until(outcomes, 40);

    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(waits.length).toBeLessThanOrEqual(120);
  });

  it('hears of a wait again only when its reason changes: one report a call for each reason', async () => {
    const waits: RateLimitWait[] = [];
    const { client } = onPlan(
      { perMinute: 10, perDay: 100_000, window: 4_000 },
      { onWait: (wait) => waits.push(wait) },
    );
    const outcomes: Outcome[] = [];
    for (let i = 0; i < 40; i++) track(outcomes, client.listPets());
    await until(outcomes, 40);

    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    // All but the first wait for its answer to learn the budget; then those past it wait for the budget.
    expect(new Set(waits.map((wait) => wait.reason))).toEqual(new Set(['probe', 'budget']));
    expect(waits.filter((wait) => wait.reason === 'probe')).toHaveLength(39);
    expect(waits.filter((wait) => wait.reason === 'budget').length).toBeLessThan(40);
  });
});
