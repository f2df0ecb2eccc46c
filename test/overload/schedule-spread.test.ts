/**
 * The schedule while the budget is spread over the window (`pacingBurst`): each call's turn in the
 * spread, which is a preference: a call whose turn comes after its bound goes at once while the
 * window's budget lasts.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Schedule } from '../../src/core/pacing/schedule.js';
import { RefusedError } from '../../src/index.js';
import { API_KEY, setup } from '../client/setup.js';
import { settle, startFakeClock } from '../support/fake-clock.js';
import { NOW, reading, startMs } from './support/schedule.js';

describe('the earliest a call could start, the budget spread over the window', () => {
  it('is now within the burst, then one even share of the time left per call beyond it', () => {
    const admission = new Schedule();
    admission.learn(reading(10, 5_000), NOW);
    // A burst of 2 (a fifth of 10), then 10 calls over the 3 s before the earliest the window can
    // reset (its whole-second reset read against a whole-second Date: up to 2 s early).
    expect([0, 1, 2, 5].map((ahead) => startMs(admission, ahead, 0, true, NOW, 0.2))).toEqual([
      0, 0, 300, 1_200,
    ]);
    expect(startMs(admission, 5, 0, true, NOW, 1)).toBe(0);
  });

  it('counts the turn within a later window, once two resets showed its length', () => {
    const admission = new Schedule();
    admission.learn(reading(0, 0, 1_799_999_994), NOW - 6_000);
    admission.learn(reading(0, 4_000, 1_800_000_004), NOW);
    // 15 ahead: the next window serves 10, the one after the burst of 2 and then one per 800 ms.
    expect(startMs(admission, 15, 0, true, NOW, 0.2)).toBe(4_000 + 10_000 + 4 * 800);
  });
});

describe('a client spreading its budget', () => {
  beforeEach(startFakeClock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('serves within their bounds the calls the budget left can serve, and refuses the rest at once', async () => {
    const { client, store } = setup(
      { pacingBurst: 0.2 },
      { apiKeys: { [API_KEY]: { perMinute: 10, perDay: 100_000, window: 10_000 } } },
    );
    await settle(client.listPets());
    const outcomes: { error?: unknown; ms: number }[] = [];
    for (let i = 0; i < 12; i++) {
      const started = Date.now();
      client.listPets({}, { callTimeout: 3_000 }).then(
        () => outcomes.push({ ms: Date.now() - started }),
        (error: unknown) => outcomes.push({ error, ms: Date.now() - started }),
      );
    }
    await vi.advanceTimersByTimeAsync(10_000);

    // The budget left (9) serves 9: a burst of 2, then one call about every second until the
    // next turn would come past the calls' bounds, and then the rest at once.
    const refused = outcomes.filter((outcome) => outcome.error !== undefined);
    expect(refused).toHaveLength(3);
    for (const { error, ms } of refused) {
      expect(error).toBeInstanceOf(RefusedError);
      expect(error).toMatchObject({ code: 'client_deadline', sent: 'no' });
      expect(ms).toBe(0);
    }
    const answered = outcomes.filter((outcome) => outcome.error === undefined);
    expect(answered).toHaveLength(9);
    expect(answered.every((outcome) => outcome.ms <= 3_000)).toBe(true);
    expect(store.requests).toHaveLength(10);
  });
});

describe('a call behind one waiting for its turn in the spread', () => {
  beforeEach(startFakeClock);
  afterEach(() => {
    vi.useRealTimers();
  });

  it('goes at once when its own bound comes before its turn, while the budget lasts', async () => {
    const { client, store } = setup(
      { pacingBurst: 0.2 },
      { apiKeys: { [API_KEY]: { perMinute: 10, perDay: 100_000, window: 10_000 } } },
    );
    await settle(client.listPets());
    // A burst of 2 goes; the third waits for its turn, about a second on.
    const patient = Array.from({ length: 3 }, () => client.listPets({}, { callTimeout: 30_000 }));
    await vi.advanceTimersByTimeAsync(0);
    const hurried = client.listPets({}, { callTimeout: 300 });
    await vi.advanceTimersByTimeAsync(0);

    // Sent at once, before the third: the one learning the budget, the burst, and this call.
    expect(store.requests).toHaveLength(4);
    await expect(hurried).resolves.toBeDefined();
    await settle(Promise.all(patient));
    expect(store.requests.filter((request) => request.response?.status === 429)).toEqual([]);
  });
});
