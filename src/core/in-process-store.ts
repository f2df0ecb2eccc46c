/**
 * The in-process {@link RateLimitStore}: pacing state in a `Map`, answered synchronously, by the
 * rules the store contract sets out (rate-limit-store.ts). Leases need no expiry here: they die with
 * the process that holds them.
 *
 * @module
 */
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';

/** How soon a request waiting for another's probe asks again, when that one is in another client. */
export const PROBE_POLL_MS = 25;

/** The pacing state of one base URL + API key. */
interface ScopeState {
  /** The latest reading, with its reset on this store's clock. */
  reading: { remaining: number; resetAt: number; window: number } | null;
  /** A success came without rate-limit headers: the service does not report them. */
  unreported: boolean;
  cooldownUntil: number;
  leases: Set<string>;
}

/** Settings of {@link InProcessRateLimitStore} that only the SDK's own stores use. */
export interface InProcessStoreSettings {
  /** The clock, in epoch milliseconds. */
  now?: () => number;
  /** The share of each window's remaining budget this store may spend (the fallback's). */
  share?: () => number;
}

export class InProcessRateLimitStore implements RateLimitStore {
  readonly #scopes = new Map<string, ScopeState>();
  /** The same states by scope object: a client passes the same one every time, so most calls end here. */
  readonly #byScope = new WeakMap<RateLimitScope, ScopeState>();
  readonly #now: () => number;
  readonly #share: (() => number) | undefined;
  #nextLease = 0;

  constructor(settings: InProcessStoreSettings = {}) {
    // `Date.now` looked up at each call, not kept: fake timers installed after the client was built
    // (vitest, Jest, node:test, Bun) replace `Date`, and the cooldown must follow them.
    this.#now = settings.now ?? (() => Date.now());
    this.#share = settings.share;
  }

  acquire(scope: RateLimitScope, request: RateLimitAcquire): RateLimitDecision {
    const state = this.#state(scope);
    const now = this.#now();
    if (now < state.cooldownUntil) {
      return { granted: false, waitMs: state.cooldownUntil - now, reason: 'cooldown' };
    }
    if (request.pacing && !state.unreported) {
      const { reading } = state;
      if (reading !== null && now < reading.resetAt) {
        const budget = this.#share ? Math.floor(reading.remaining * this.#share()) : reading.remaining;
        if (budget - state.leases.size <= 0) {
          return { granted: false, waitMs: reading.resetAt - now, reason: 'budget' };
        }
      } else if (state.leases.size > 0) {
        return { granted: false, waitMs: PROBE_POLL_MS, reason: 'probe' };
      }
    }
    const lease = String(++this.#nextLease);
    state.leases.add(lease);
    return { granted: true, lease };
  }

  release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): void {
    const state = this.#state(scope);
    state.leases.delete(lease);
    this.record(scope, outcome);
  }

  /** Takes in what a response said, without a lease of this store (the fallback's). */
  record(scope: RateLimitScope, { reading, cooldownMs }: RateLimitOutcome): void {
    const state = this.#state(scope);
    const now = this.#now();
    if (reading === null) {
      state.unreported = state.reading === null;
    } else if (reading !== undefined) {
      state.unreported = false;
      const current = state.reading;
      // Responses of one window can arrive out of order: the lowest remaining count is the truest.
      state.reading =
        current !== null && current.window === reading.window
          ? { ...current, remaining: Math.min(current.remaining, reading.remaining) }
          : { remaining: reading.remaining, resetAt: now + reading.resetInMs, window: reading.window };
    }
    if (cooldownMs !== undefined) state.cooldownUntil = Math.max(state.cooldownUntil, now + cooldownMs);
  }

  #state(scope: RateLimitScope): ScopeState {
    let state = this.#byScope.get(scope);
    if (state !== undefined) return state;
    // The map lives only in this process's memory, next to the client that holds the key anyway.
    const id = `${scope.baseUrl}\n${scope.apiKey}`;
    state = this.#scopes.get(id);
    if (state === undefined) {
      state = { reading: null, unreported: false, cooldownUntil: 0, leases: new Set() };
      this.#scopes.set(id, state);
    }
    this.#byScope.set(scope, state);
    return state;
  }
}

/**
 * Creates a store that keeps pacing state in this process. Every client gets a fresh one by
 * default; pass one store to many clients (`rateLimitStore`) to give every client of the same base
 * URL and API key one budget and one cooldown, as an app that creates a client per request needs.
 * Clients with other keys or base URLs keep separate state in the same store.
 *
 * @example
 * ```ts
 * import { createInProcessRateLimitStore, PetStoreClient } from 'animal-store-sdk';
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
