/**
 * The sessions of one fake HTTP server: isolated stores created through the control API, at most a
 * given number at once, each ended when it has been idle too long, so a long-running server's memory
 * stays flat.
 *
 * @module
 */
import { ERROR_CODES, errorReply, type JsonReply } from '../rules/responses.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS, type StoreCore } from '../store/store-core.js';

/** How many requests a session's log keeps (the oldest dropped first): sessions × this bounds the logs. */
export const SESSION_MAX_RECORDED_REQUESTS = 1_000;

/** How many bytes a session's log keeps at most (8 MiB), however large the root's may be. */
export const SESSION_MAX_RECORDED_BYTES = 8 * 1024 * 1024;

const MAX_SESSIONS_LIMIT = 10_000;

/** One session: its id and its store. */
export interface Session {
  readonly id: string;
  readonly core: StoreCore;
}

/** The live sessions, by id, with when each was last used. */
export class SessionRegistry {
  readonly #sessions = new Map<string, { session: Session; lastUsed: number }>();
  readonly #spawn: (id: string) => StoreCore;
  readonly #now: () => number;
  readonly #max: number;
  readonly #idleMs: number;

  /**
   * @param spawn Builds the store of a new session.
   * @param now The clock idleness is measured by.
   * @throws RangeError when `maxSessions` or `sessionIdleTimeout` is out of range.
   */
  constructor(
    spawn: (id: string) => StoreCore,
    now: () => number,
    limits: { readonly maxSessions?: number; readonly sessionIdleTimeout?: number },
  ) {
    this.#spawn = spawn;
    this.#now = now;
    this.#max = limits.maxSessions ?? DEFAULT_MAX_SESSIONS;
    this.#idleMs = limits.sessionIdleTimeout ?? DEFAULT_SESSION_IDLE_MS;
    if (!(Number.isInteger(this.#max) && this.#max >= 0 && this.#max <= MAX_SESSIONS_LIMIT)) {
      throw new RangeError(
        `control.maxSessions must be an integer from 0 to ${MAX_SESSIONS_LIMIT}, got ${this.#max}`,
      );
    }
    if (!(Number.isSafeInteger(this.#idleMs) && this.#idleMs >= 1)) {
      throw new RangeError(`control.sessionIdleTimeout must be a positive integer, got ${this.#idleMs}`);
    }
  }

  /** The most sessions kept at once. */
  get max(): number {
    return this.#max;
  }

  /** How long a session may stay idle, in milliseconds. */
  get idleMs(): number {
    return this.#idleMs;
  }

  /** How many sessions are live. */
  get size(): number {
    this.#expire();
    return this.#sessions.size;
  }

  /** A new session, after ending the idle ones; `undefined` when the registry is still full. */
  create(): Session | undefined {
    this.#expire();
    if (this.#sessions.size >= this.#max) return undefined;
    const id = globalThis.crypto.randomUUID();
    const session: Session = { id, core: this.#spawn(id) };
    this.#sessions.set(id, { session, lastUsed: this.#now() });
    return session;
  }

  /** The live session `id`, now marked as used; `undefined` when there is none or it has expired. */
  use(id: string): Session | undefined {
    const entry = this.#sessions.get(id);
    if (entry === undefined) return undefined;
    const now = this.#now();
    if (now - entry.lastUsed >= this.#idleMs) {
      this.#sessions.delete(id);
      return undefined;
    }
    entry.lastUsed = now;
    return entry.session;
  }

  /** The 404 for a request to session `id`, which is not live. */
  noSession(id: string): JsonReply {
    return errorReply(
      404,
      ERROR_CODES.notFound,
      `No session ${id}: it was ended, went idle for ${this.#idleMs} ms, or never existed`,
    );
  }

  /** Ends session `id`; `false` when there was none. */
  end(id: string): boolean {
    return this.#sessions.delete(id);
  }

  #expire(): void {
    const now = this.#now();
    for (const [id, entry] of this.#sessions) {
      if (now - entry.lastUsed >= this.#idleMs) this.#sessions.delete(id);
    }
  }
}
