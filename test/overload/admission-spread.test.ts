/**
 * Admission while the budget is spread over the window (`pacingBurst`): a call whose turn in the
 * spread comes after its bound is refused at once, before it waits, rather than when its bound ends.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Admission } from '../../src/core/queue/admission.js';
import { RateLimitError } from '../../src/index.js';
import { API_KEY, setup } from '../client/setup.js';
import { settle, startFakeClock } from '../support/fake-clock.js';

const NOW = 1_800_000_000_000;
/** A reading of a 10-request window that resets in `resetInMs`. */
const reading = (remaining: number, resetInMs: number, window = 1_800_000_010) => ({
  reading: { limit: 10, remaining, resetInMs, window },
});

describe('the earliest a call could start, the budget spread over the window', () => {
  it('is now within the burst, then one even share of the time left per call beyond it', () => {
    const admission = new Admission();
    admission.learn(reading(10, 5_000), NOW);
    // A burst of 2 (a fifth of 10), then 10 calls over the 4 s left before the reset as read.
    expect([0, 1, 2, 5].map((ahead) => admission.earliestStartMs(ahead, 0, true, NOW, 0.2))).toEqual([
      0, 0, 400, 1_600,
    ]);
    expect(admission.earliestStartMs(5, 0, true, NOW, 1)).toBe(0);
  });

  it('counts the turn within a later window, once two resets showed its length', () => {
    const admission = new Admission();
    admission.learn(reading(0, 500, 1_800_000_000), NOW - 10_000);
    admission.learn(reading(0, 4_000), NOW);
    // 15 ahead: the next window serves 10, the one after the burst of 2 and then one per 900 ms.
    expect(admission.earliestStartMs(15, 0, true, NOW, 0.2)).toBe(4_000 + 10_000 + 4 * 900);
  });
});

describe('a client spreading its budget', () => {
  beforeEach(startFakeClock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses at once the calls whose turn comes after their bound, and answers every call it keeps', async () => {
    const { client, store } = setup(
      { pacingBurst: 0.2 },
      { apiKeys: { [API_KEY]: { perMinute: 10, perDay: 100_000, windowMs: 10_000 } } },
    );
    await settle(client.listPets());
    const outcomes: { error?: unknown; ms: number }[] = [];
    for (let i = 0; i < 9; i++) {
      const started = Date.now();
      client.listPets({}, { callTimeout: 3_000 }).then(
        () => outcomes.push({ ms: Date.now() - started }),
        (error: unknown) => outcomes.push({ error, ms: Date.now() - started }),
      );
    }
    await vi.advanceTimersByTimeAsync(0);
    const refusedAtOnce = outcomes.filter((outcome) => outcome.error !== undefined);
    await vi.advanceTimersByTimeAsync(10_000);

    // A burst of 2, then one call about every second: the later ones cannot start within 3 s.
    expect(refusedAtOnce.length).toBeGreaterThanOrEqual(3);
    for (const { error } of refusedAtOnce) {
      expect(error).toBeInstanceOf(RateLimitError);
      expect(error).toMatchObject({ code: 'client_deadline', sent: 'no' });
    }
    expect(outcomes).toHaveLength(9);
    // Every call not refused at once was answered: none was kept only to run out of time waiting.
    expect(outcomes.filter((outcome) => outcome.error !== undefined)).toHaveLength(refusedAtOnce.length);
    expect(store.requests).toHaveLength(1 + 9 - refusedAtOnce.length);
  });
});
