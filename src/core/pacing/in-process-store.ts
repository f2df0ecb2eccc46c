/**
 * The in-process {@link RateLimitStore}: pacing state in a `Map`, answered synchronously, by the
 * rules the store contract sets out (in the doc comment of {@link RateLimitStore}). Leases need no expiry here: they die with
 * the process that holds them. Given an allotment, it is the pacing of a process alone
 * ({@link withFallback}).
 *
 * @module
 */

import { probeBackoffMs } from './probe.js';
import { RESET_RESOLUTION_MS } from './rate-limit.js';
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';
import { type SpreadBucket, spread } from './spread.js';
import { type Sent, SPANS_RESETS, sentIn, spentIn, spentUntil } from './unanswered.js';

/** How soon a request waiting for another's probe asks again, when that one is in another client. */
const PROBE_POLL_MS = 25;

/** The pacing state of one base URL + API key. */
interface ScopeState {
  /** The latest reading, with its reset on this store's clock. */
  reading: WindowReading | null;
  /** A success came without rate-limit headers: the service does not report them. */
  unreported: boolean;
  cooldownUntil: number;
  /** Each lease out: the window it went in (0: none current), and when. */
  leases: Map<string, Sent>;
  /** The lease of the request out learning the budget, if any. */
  probe?: string | undefined;
  /**
   * The requests that got no response and no later request's reading since, kept apart from
   * `remaining`: a reading counts only the requests sent before its own.
   */
  lost: Sent[];
  /** Requests unanswered since the last reading (probe.ts), and when the next probe may go. */
  silences: number;
  probeAt: number;
  /** The longest window a reading showed (its reset, rounded up to whole seconds). */
  windowMs: number;
  /** The window's bucket, when requests spread its budget over it. */
  bucket?: SpreadBucket | undefined;
}

/** A window as the store reads it: the latest reading, its reset on the store's clock. */
export interface WindowReading {
  /** The window (`X-RateLimit-Reset` as sent). */
  readonly window: number;
  /** Requests left in it, as the latest response said. */
  readonly remaining: number;
  /** Requests the window allows (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** When it resets (epoch ms). */
  readonly resetAt: number;
  /** A response to one of this store's own requests revealed it: that request counts in it. */
  readonly own: boolean;
}

/** Pacing alone: what else limits a scope's requests in a window, beyond the reading. */
export interface WindowAllotment {
  /** Whether the window leaves the scope another request; counts it when it does. */
  take(scope: RateLimitScope, window: WindowReading): boolean;
}

/** The name of a scope's state: base URL and key, kept only in this process's memory. */
export const scopeId = (scope: RateLimitScope): string => `${scope.baseUrl}\n${scope.apiKey}`;

export class InProcessRateLimitStore implements RateLimitStore {
  readonly #scopes = new Map<string, ScopeState>();
  /** The same states by scope object: a client passes the same one every time, so most calls end here. */
  readonly #byScope = new WeakMap<RateLimitScope, ScopeState>();
  readonly #allotment: WindowAllotment | undefined;
  #nextLease = 0;

  /**
   * @param allotment - Pacing alone: how much of each window this process may spend, without knowing
   * what the others spend (the fallback's). Without one, the store paces by the reading alone.
   */
  constructor(allotment?: WindowAllotment) {
    this.#allotment = allotment;
  }

  acquire(scope: RateLimitScope, { pacing, burst = 1, within }: RateLimitAcquire): RateLimitDecision {
    const state = this.#state(scope);
    const { reading, leases } = state;
    // `Date.now` looked up at each call, not kept: fake timers installed after the client was built
    // (vitest, Jest, node:test, Bun) replace `Date`, and the cooldown must follow them.
    const now = Date.now();
    if (now < state.cooldownUntil) return wait(state.cooldownUntil - now, 'cooldown');
    let probe = false;
    let window = 0;
    if (pacing && !state.unreported) {
      const current = reading !== null && now < reading.resetAt;
      probe = !current || state.silences > 0;
      if (probe) {
        if (state.probe !== undefined) return wait(PROBE_POLL_MS, 'probe', true);
        if (now < state.probeAt) return wait(state.probeAt - now, 'probe');
        const openAt = SPANS_RESETS && spentUntil(state, now);
        if (openAt) return wait(openAt - now, 'budget');
      }
      if (current) {
        const available =
          reading.remaining - leases.size - spentIn(state.lost, reading.window, now - state.windowMs);
        const paced =
          available > 0 && burst < 1
            ? spread(
                state.bucket,
                reading.window,
                now,
                available,
                reading.resetAt - now,
                reading.limit,
                burst,
              )
            : undefined;
        if (paced?.waitMs && !(paced.waitMs > (within as number))) return wait(paced.waitMs, 'budget');
        if (available <= 0 || this.#allotment?.take(scope, reading) === false) {
          return wait(reading.resetAt - now, 'budget', available < 1 && available + leases.size > 0);
        }
        if (paced) state.bucket = paced.bucket;
      }
      window = sentIn(reading, now);
    }
    const lease = String(++this.#nextLease);
    leases.set(lease, { lease: this.#nextLease, window, at: now });
    if (probe) state.probe = lease;
    return { granted: true, lease };
  }

  release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): void {
    const state = this.#state(scope);
    const { reading, leases, windowMs } = state;
    const sent = leases.get(lease);
    const now = Date.now();
    leases.delete(lease);
    if (state.probe === lease) state.probe = undefined;
    // An unanswered request stays spent in the window it went in, and the next goes as a probe, later.
    if (sent !== undefined && outcome.unanswered) {
      const current = reading !== null && now < reading.resetAt;
      if (reading !== null) {
        state.lost = state.lost.filter(
          (other) => other.at > now - windowMs || (current && other.window === reading.window),
        );
        state.lost.push(sent);
      }
      // A caller's abort says nothing of the way to the service: within a known window, counting it is enough.
      if (outcome.unanswered === 'lost' || !current) {
        const pace = reading === null ? 0 : windowMs / Math.max(1, reading.limit);
        state.probeAt = now + probeBackoffMs(++state.silences, Math.random(), pace);
      }
    }
    // A reading counts every request sent before its own.
    if (outcome.reading) state.lost = state.lost.filter((other) => other.lease > Number(lease));
    this.record(scope, outcome, true);
  }

  /**
   * Takes in what a response said; `own` when the request had a lease of this store, else (the
   * fallback's) what another store's request or reading said.
   */
  record(scope: RateLimitScope, { reading, cooldownMs }: RateLimitOutcome, own = false): void {
    const state = this.#state(scope);
    const now = Date.now();
    if (reading === null) {
      state.unreported = state.reading === null;
    } else if (reading !== undefined) {
      // Responses of one window can arrive out of order: the lowest remaining count is the truest. The
      // reset first read stands, so that a call refused by it is never then served earlier.
      const current = state.reading;
      state.reading =
        current?.window === reading.window
          ? { ...current, remaining: Math.min(current.remaining, reading.remaining) }
          : { ...reading, resetAt: now + reading.resetInMs, own };
      state.unreported = false;
      state.silences = 0;
      state.probeAt = 0;
      state.windowMs = Math.max(state.windowMs, reading.resetInMs + RESET_RESOLUTION_MS);
    }
    if (cooldownMs !== undefined) state.cooldownUntil = Math.max(state.cooldownUntil, now + cooldownMs);
  }

  #state(scope: RateLimitScope): ScopeState {
    let state = this.#byScope.get(scope);
    if (state === undefined) {
      // The map lives only in this process's memory, next to the client that holds the key anyway.
      const id = scopeId(scope);
      state = this.#scopes.get(id) ?? {
        reading: null,
        unreported: false,
        cooldownUntil: 0,
        leases: new Map(),
        lost: [],
        silences: 0,
        probeAt: 0,
        windowMs: 0,
      };
      this.#scopes.set(id, state);
      this.#byScope.set(scope, state);
    }
    return state;
  }
}

/** A decision to wait. */
const wait = (
  waitMs: number,
  reason: 'cooldown' | 'budget' | 'probe',
  held?: boolean,
): RateLimitDecision => ({ granted: false, waitMs, reason, held });

/**
 * Creates a store that keeps pacing state in this process. Every client gets a fresh one by
 * default; pass one store to many clients (`rateLimitStore`) to give every client of the same base
 * URL and API key one budget and one cooldown, as an app that creates a client per request needs.
 * Clients with other keys or base URLs keep separate state in the same store.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createInProcessRateLimitStore } from 'animal-store-sdk/store';
 *
 * const rateLimitStore = createInProcessRateLimitStore();
 * const a = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', rateLimitStore });
 * const b = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', rateLimitStore });
 * // a and b spend one budget: together they never send more than the window allows.
 * await Promise.all([a.listPets(), b.listPets()]);
 * ```
 */
export function createInProcessRateLimitStore(): RateLimitStore {
  return new InProcessRateLimitStore();
}
