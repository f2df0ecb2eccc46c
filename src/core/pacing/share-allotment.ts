/**
 * Pacing alone on a share: how many requests of each rate-limit window a process may send while it
 * cannot see what the other processes on its key send ({@link withFallback}'s in-process pacing).
 *
 * @module
 */
import { scopeId, type WindowAllotment, type WindowReading } from './in-process-store.js';
import type { RateLimitScope } from './rate-limit-store.js';

/** What a process pacing alone may still send in one window. */
interface Allotment {
  /** The window (`X-RateLimit-Reset` as sent) it is for. */
  readonly window: number;
  /** Its share of the window's budget when it first sent in it alone. */
  readonly allowed: number;
  /** Requests it sent in the window, the one that revealed the window included. */
  sent: number;
}

/** One scope's (base URL + key's) allotments. */
interface ScopeAllotment {
  /** This window's allotment. */
  current: Allotment | undefined;
  /** When the latest window it granted requests in resets (epoch ms); 0 before any. */
  pacedAloneUntil: number;
}

/**
 * Each process keeps to its share of the budget as it was when it started sending in the window, so
 * that processes that cannot see each other's requests never spend more than the window holds
 * together. Kept apart from the in-process store, which paces by the reading alone, so that a client
 * that never falls back carries none of it.
 */
export class ShareAllotment implements WindowAllotment {
  readonly #share: () => number;
  readonly #byScope = new Map<string, ScopeAllotment>();

  /** @param share - The share of each window's budget this process may spend, read at each new window. */
  constructor(share: () => number) {
    this.#share = share;
  }

  /** Whether the window leaves the scope another request; counts it when it does. */
  take(scope: RateLimitScope, window: WindowReading): boolean {
    const state = this.#state(scopeId(scope));
    if (state.current?.window !== window.window) {
      const sent = window.own ? 1 : 0;
      state.current = {
        window: window.window,
        allowed: Math.floor(this.#share() * (window.remaining + sent)),
        sent,
      };
    }
    if (state.current.sent >= state.current.allowed) return false;
    state.current.sent++;
    state.pacedAloneUntil = Math.max(state.pacedAloneUntil, window.resetAt);
    return true;
  }

  /** When the latest window the scope sent in alone resets (epoch ms); 0 before any. */
  pacedAloneUntil(scope: RateLimitScope): number {
    return this.#byScope.get(scopeId(scope))?.pacedAloneUntil ?? 0;
  }

  #state(id: string): ScopeAllotment {
    let state = this.#byScope.get(id);
    if (state === undefined) {
      state = { current: undefined, pacedAloneUntil: 0 };
      this.#byScope.set(id, state);
    }
    return state;
  }
}
