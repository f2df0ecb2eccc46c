/**
 * The in-process {@link RateLimitStore}: pacing state in a `Map`, answered synchronously, by the
 * rules the store contract sets out (rate-limit-store.ts). Leases need no expiry here: they die with
 * the process that holds them. Given a share, it is the pacing of a process alone ({@link withFallback}).
 *
 * @module
 */
import type {
  RateLimitAcquire,
  RateLimitDecision,
  RateLimitObservation,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';

/** How soon a request waiting for another's probe asks again, when that one is in another client. */
const PROBE_POLL_MS = 25;

/** What a process pacing alone may still send in one window. */
interface Allotment {
  /** The window (`X-RateLimit-Reset` as sent) it is for. */
  readonly window: number;
  /** Its share of the window's budget when it first sent in it alone. */
  readonly allowed: number;
  /** Requests it sent in the window, the one that revealed the window included. */
  sent: number;
}

/** The pacing state of one base URL + API key. */
interface ScopeState {
  /** The latest reading, with its reset on this store's clock. */
  reading: { remaining: number; resetAt: number; window: number } | null;
  /** A success came without rate-limit headers: the service does not report them. */
  unreported: boolean;
  cooldownUntil: number;
  leases: Set<string>;
  /** The lease of the request out learning the budget, if any. */
  probe: string | undefined;
  /** Pacing alone: this window's allotment. */
  allotment: Allotment | undefined;
  /** Pacing alone: the window a response to one of this store's own requests revealed last. */
  revealed: number | undefined;
  /** Pacing alone: when the latest window it granted requests in by its allotment resets (epoch ms). */
  pacedAloneUntil: number;
}

/** Settings of {@link InProcessRateLimitStore} that only the SDK's own stores use. */
export interface InProcessStoreSettings {
  /** The clock, in epoch milliseconds. */
  now?: () => number;
  /**
   * Pacing alone: the share of each window's budget this process may spend, without knowing what
   * the others spend (the fallback's). Without one, the store paces by the reading alone.
   */
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
        const spent = reading.remaining - state.leases.size <= 0 || !this.#allots(state, reading);
        if (spent) return { granted: false, waitMs: reading.resetAt - now, reason: 'budget' };
        if (state.allotment !== undefined) {
          state.allotment.sent++;
          state.pacedAloneUntil = Math.max(state.pacedAloneUntil, reading.resetAt);
        }
      } else if (state.probe !== undefined) {
        return { granted: false, waitMs: PROBE_POLL_MS, reason: 'probe' };
      } else {
        return { granted: true, lease: this.#lease(state, true) };
      }
    }
    return { granted: true, lease: this.#lease(state, false) };
  }

  #lease(state: ScopeState, probe: boolean): string {
    const lease = String(++this.#nextLease);
    state.leases.add(lease);
    if (probe) state.probe = lease;
    return lease;
  }

  release(scope: RateLimitScope, lease: string, outcome: RateLimitOutcome): void {
    const state = this.#state(scope);
    state.leases.delete(lease);
    if (state.probe === lease) state.probe = undefined;
    const { reading } = outcome;
    // Pacing alone, a request that revealed a new window counted in it: it is part of the allotment.
    if (this.#share !== undefined && reading && state.reading?.window !== reading.window) {
      state.revealed = reading.window;
    }
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
      state.reading = lowest(state.reading, reading, now);
    }
    if (cooldownMs !== undefined) state.cooldownUntil = Math.max(state.cooldownUntil, now + cooldownMs);
  }

  /**
   * Pacing alone: when the latest window this store granted requests in by its allotment resets
   * (epoch ms); 0 before any.
   */
  pacedAloneUntil(scope: RateLimitScope): number {
    return this.#state(scope).pacedAloneUntil;
  }

  /**
   * Pacing alone, whether the window leaves this process another request: each process keeps to its
   * share of the budget as it was when it started sending in the window, so that processes that
   * cannot see each other's requests never spend more than the window holds together.
   */
  #allots(state: ScopeState, reading: { remaining: number; window: number }): boolean {
    if (this.#share === undefined) return true;
    if (state.allotment?.window !== reading.window) {
      const sent = state.revealed === reading.window ? 1 : 0;
      const allowed = Math.floor(this.#share() * (reading.remaining + sent));
      state.allotment = { window: reading.window, allowed, sent };
    }
    return state.allotment.sent < state.allotment.allowed;
  }

  #state(scope: RateLimitScope): ScopeState {
    let state = this.#byScope.get(scope);
    if (state !== undefined) return state;
    // The map lives only in this process's memory, next to the client that holds the key anyway.
    const id = `${scope.baseUrl}\n${scope.apiKey}`;
    state = this.#scopes.get(id);
    if (state === undefined) {
      state = {
        reading: null,
        unreported: false,
        cooldownUntil: 0,
        leases: new Set(),
        probe: undefined,
        allotment: undefined,
        revealed: undefined,
        pacedAloneUntil: 0,
      };
      this.#scopes.set(id, state);
    }
    this.#byScope.set(scope, state);
    return state;
  }
}

/** Responses of one window can arrive out of order: the lowest remaining count is the truest. */
function lowest(
  current: ScopeState['reading'],
  reading: RateLimitObservation,
  now: number,
): NonNullable<ScopeState['reading']> {
  return current !== null && current.window === reading.window
    ? { ...current, remaining: Math.min(current.remaining, reading.remaining) }
    : { remaining: reading.remaining, resetAt: now + reading.resetInMs, window: reading.window };
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
