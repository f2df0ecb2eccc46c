/**
 * The rate-limit store contract as tests: one set of expectations any {@link RateLimitStore} must
 * meet, run against every store the package ships (and any a user writes, by calling
 * {@link describeStoreContract} with a factory). The rules themselves are written once, in the
 * contract's doc comment (src/core/pacing/rate-limit-store.ts).
 *
 * Times are real but short: the stores keep their own clocks (the Redis store keeps Redis's), so the
 * waits they answer are checked against bounds, and the one test that lets a window pass sleeps a
 * few hundred milliseconds, enough on a busy machine as a longer sleep only passes more of it.
 *
 * @module
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type {
  RateLimitAcquire,
  RateLimitObservation,
  RateLimitScope,
  RateLimitStore,
} from '../../src/store/index.js';

const PACED: RateLimitAcquire = { leaseMs: 10_000, pacing: true };
const UNPACED: RateLimitAcquire = { leaseMs: 10_000, pacing: false };
/** Spreading the budget: a fifth of the window's limit (10) at once. */
const SPREAD: RateLimitAcquire = { leaseMs: 10_000, pacing: true, burst: 0.2 };
const WINDOW = 1_800_000_000;

function reading(remaining: number, resetInMs: number, window = WINDOW): RateLimitObservation {
  return { limit: 10, remaining, resetInMs, window };
}

let scopes = 0;
/** A scope of its own for every test, so that no state one test left reaches the next. */
function freshScope(baseUrl = 'http://animal-store.test/v1/'): RateLimitScope {
  return Object.freeze({ baseUrl, apiKey: `sk-contract-${process.pid}-${++scopes}` });
}

async function lease(store: RateLimitStore, scope: RateLimitScope, request = PACED): Promise<string> {
  const decision = await store.acquire(scope, request);
  if (!decision.granted) throw new Error(`expected a lease, got ${JSON.stringify(decision)}`);
  return decision.lease;
}

/** Leases granted in a row until the store refuses one; the refusal ends the list. */
async function grantsUntilRefused(store: RateLimitStore, scope: RateLimitScope, most = 20, request = PACED) {
  const leases: string[] = [];
  for (let i = 0; i < most; i++) {
    const decision = await store.acquire(scope, request);
    if (!decision.granted) return { leases, refusal: decision };
    leases.push(decision.lease);
  }
  throw new Error(`the store granted ${most} leases without refusing one`);
}

/** Runs the contract's expectations against the store `create` returns (called once per test). */
export function describeStoreContract(
  name: string,
  create: () => RateLimitStore | Promise<RateLimitStore>,
): void {
  describe(`the rate-limit store contract: ${name}`, () => {
    let store: RateLimitStore;
    let scope: RateLimitScope;
    beforeEach(async () => {
      store = await create();
      scope = freshScope();
    });

    it('with no reading, lets one request out at a time to learn the budget', async () => {
      await lease(store, scope);
      const waiting = await store.acquire(scope, PACED);

      expect(waiting).toMatchObject({ granted: false, reason: 'probe' });
      expect(waiting.granted === false && waiting.waitMs).toBeGreaterThan(0);
      expect(waiting.granted === false && waiting.waitMs).toBeLessThanOrEqual(1_000);
    });

    it('with a current reading, grants while remaining exceeds the leases out, then waits for the reset', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(3, 5_000) });
      const { leases, refusal } = await grantsUntilRefused(store, scope);

      expect(leases).toHaveLength(3);
      expect(refusal).toMatchObject({ granted: false, reason: 'budget' });
      expect(refusal.granted === false && refusal.waitMs).toBeGreaterThan(3_000);
      expect(refusal.granted === false && refusal.waitMs).toBeLessThanOrEqual(5_000);
    });

    it('says when the leases out hold the budget, so that a caller of another client may wait for them', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(1, 5_000) });
      const out = await lease(store, scope);
      const { leases, refusal } = await grantsUntilRefused(store, scope);

      expect(leases).toHaveLength(0);
      expect(refusal).toMatchObject({ granted: false, reason: 'budget', held: true });
      await store.release(scope, out, { reading: reading(0, 5_000) });
      expect(await store.acquire(scope, PACED)).not.toMatchObject({ held: true });
    });

    it('keeps the lowest remaining of one window, whatever order the outcomes arrive in', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(9, 5_000) });
      const [first, second] = [await lease(store, scope), await lease(store, scope)];
      await store.release(scope, first as string, { reading: reading(2, 5_000) });
      await store.release(scope, second as string, { reading: reading(6, 5_000) });

      expect((await grantsUntilRefused(store, scope)).leases).toHaveLength(2);
    });

    it('takes a new window as it comes', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(0, 5_000, WINDOW) });
      await store.release(scope, await lease(store, scope, UNPACED), {
        reading: reading(2, 5_000, WINDOW + 60),
      });

      expect((await grantsUntilRefused(store, scope)).leases).toHaveLength(2);
    });

    it('holds every request during a cooldown, paced or not, and a cooldown only grows', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(5, 5_000) });
      const [first, second] = [await lease(store, scope), await lease(store, scope)];
      await store.release(scope, first as string, { reading: reading(0, 5_000), cooldownMs: 3_000 });
      await store.release(scope, second as string, { cooldownMs: 100 });
      const paced = await store.acquire(scope, PACED);
      const unpaced = await store.acquire(scope, UNPACED);

      for (const decision of [paced, unpaced]) {
        expect(decision).toMatchObject({ granted: false, reason: 'cooldown' });
        expect(decision.granted === false && decision.waitMs).toBeGreaterThan(2_000);
        expect(decision.granted === false && decision.waitMs).toBeLessThanOrEqual(3_000);
      }
    });

    it('with pacing off, grants without a reading and beyond the budget', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(1, 5_000) });
      const leases = [];
      for (let i = 0; i < 5; i++) leases.push(await lease(store, scope, UNPACED));

      expect(leases).toHaveLength(5);
      expect(new Set(leases).size).toBe(5);
    });

    it('once a success came without rate-limit headers, grants without probing', async () => {
      await store.release(scope, await lease(store, scope), { reading: null });
      const leases = [];
      for (let i = 0; i < 5; i++) leases.push(await lease(store, scope));

      expect(leases).toHaveLength(5);
    });

    it('keeps separate state for other API keys and other base URLs', async () => {
      await store.release(scope, await lease(store, scope), {
        reading: reading(0, 5_000),
        cooldownMs: 3_000,
      });
      const otherKey = freshScope();
      const otherBase = Object.freeze({ ...scope, baseUrl: 'http://staging.animal-store.test/v1/' });

      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: false, reason: 'cooldown' });
      expect(await store.acquire(otherKey, PACED)).toMatchObject({ granted: true });
      expect(await store.acquire(otherBase, PACED)).toMatchObject({ granted: true });
    });

    it('after the reset, learns the budget again one request at a time', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(0, 200) });
      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: false, reason: 'budget' });
      await new Promise((resolve) => setTimeout(resolve, 400));

      await lease(store, scope);
      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: false, reason: 'probe' });
    });

    it('counts a request that brought no reading back as spent in its window', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(2, 5_000) });
      const [lost] = [await lease(store, scope), await lease(store, scope)];
      await store.release(scope, lost as string, { unanswered: 'lost' });
      const probe = await store.acquire(scope, PACED);
      await new Promise((resolve) => setTimeout(resolve, (probe.granted ? 0 : probe.waitMs) + 20));

      // Two left, one out and one lost: none.
      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: false, reason: 'budget' });
    });

    it('keeps a request with no answer spent through a reading taken before it went', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(5, 5_000) });
      const before = await lease(store, scope);
      const lost = await lease(store, scope);
      await lease(store, scope);
      await store.release(scope, lost, { unanswered: 'aborted' });
      await store.release(scope, before, { reading: reading(4, 5_000) });

      // Four left, the last one out, one lost (a reading of a request granted after it would clear it): two.
      expect((await grantsUntilRefused(store, scope)).leases).toHaveLength(2);
    });

    it('counts a request with no answer in the window it went in, not in the next', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(5, 5_000) });
      const early = await lease(store, scope);
      // The window resets, and a request granted after it reads the next, before its caller gives up.
      await store.release(scope, await lease(store, scope), { reading: reading(9, 5_000, WINDOW + 10) });
      await store.release(scope, early, { unanswered: 'aborted' });

      expect((await grantsUntilRefused(store, scope)).leases).toHaveLength(9);
    });

    it('after a request brought no reading back, sends one at a time after a backoff until a reading returns', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(9, 5_000) });
      await store.release(scope, await lease(store, scope), { unanswered: 'lost' });
      const backoff = await store.acquire(scope, PACED);
      expect(backoff).toMatchObject({ granted: false, reason: 'probe' });
      const waitMs = backoff.granted ? 0 : backoff.waitMs;
      // The first step (250 to 500 ms), or the last window's pace (6 s over 10) when longer.
      expect(waitMs).toBeGreaterThan(200);
      expect(waitMs).toBeLessThanOrEqual(600);

      await new Promise((resolve) => setTimeout(resolve, waitMs + 20));
      const probe = await lease(store, scope);
      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: false, reason: 'probe' });
      await store.release(scope, probe, { reading: reading(6, 4_000) });
      expect((await grantsUntilRefused(store, scope)).leases).toHaveLength(6);
    });

    it('counts a request aborted in flight as spent, without backing off while its window is known', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(3, 5_000) });
      await store.release(scope, await lease(store, scope), { unanswered: 'aborted' });
      const { leases, refusal } = await grantsUntilRefused(store, scope);
      expect(leases).toHaveLength(2);
      expect(refusal).toMatchObject({ granted: false, reason: 'budget' });
    });

    it('takes a lease handed back with nothing learned (never used): no backoff, no probe', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(5, 5_000) });
      await store.release(scope, await lease(store, scope), {});
      expect(await store.acquire(scope, PACED)).toMatchObject({ granted: true });
    });

    it('spreading the budget, grants a burst at once, then one request per even share of the time left', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(9, 4_000) });
      const { leases, refusal } = await grantsUntilRefused(store, scope, 20, SPREAD);

      // A burst of 2 (a fifth of 10); then 7 requests left over 3 s (4 s less the reset's second).
      expect(leases).toHaveLength(2);
      expect(refusal).toMatchObject({ granted: false, reason: 'budget' });
      const waitMs = refusal.granted === false ? refusal.waitMs : 0;
      expect(waitMs).toBeGreaterThan(250);
      expect(waitMs).toBeLessThanOrEqual(3_000 / 7 + 1);

      await new Promise((resolve) => setTimeout(resolve, waitMs + 20));
      expect((await grantsUntilRefused(store, scope, 20, SPREAD)).leases).toHaveLength(1);
    });

    it('spreading the budget, grants at once a request whose bound comes before its turn, while the budget lasts', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(2, 4_000) });
      const hurried = { ...SPREAD, burst: 0.1, within: 100 };
      // A burst of 1; the next turn is a second and a half on, past the bound: the budget serves it now.
      expect((await grantsUntilRefused(store, scope, 20, hurried)).leases).toHaveLength(2);
    });

    it('spreading the budget, fills the burst again with each window, within what the window has left', async () => {
      await store.release(scope, await lease(store, scope), { reading: reading(9, 4_000) });
      const spent = await grantsUntilRefused(store, scope, 20, SPREAD);
      await store.release(scope, await lease(store, scope, UNPACED), {
        reading: reading(6, 4_000, WINDOW + 60),
      });
      expect((await grantsUntilRefused(store, scope, 20, SPREAD)).leases).toHaveLength(2);

      // The two leases of the last window still out, and the two just granted: one left.
      await store.release(scope, await lease(store, scope, UNPACED), {
        reading: reading(5, 4_000, WINDOW + 120),
      });
      expect((await grantsUntilRefused(store, scope, 20, SPREAD)).leases).toHaveLength(1);
      expect(spent.leases).toHaveLength(2);
    });
  });
}
