/**
 * The per-client gate every request passes before it is sent.
 *
 * The interface warns that repeated requests after a 429 may get the API key banned, so the
 * client never sends a request it knows will be refused:
 *
 * - After a 429 it holds every request of the client, whatever the operation, until the wait
 *   the service asked for is over (the cooldown).
 * - With pacing on, it keeps the latest `X-RateLimit-*` reading and counts the requests in
 *   flight since; when the window's budget is spent it holds requests until the window resets.
 *   While it has no current reading (before the first response, or once a window has reset) it
 *   sends one request alone to learn the budget, so a burst costs at most one refused request.
 *
 * Held requests are released in the order they arrived. A wait longer than `maxWait` fails at
 * once with a {@link RateLimitError}; an aborted signal drops its request from the queue.
 *
 * @module
 */
import { RateLimitError } from '../errors.js';
import type { RateLimit } from './rate-limit.js';

/**
 * One wait the client imposed on itself before sending a request.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type RateLimitWait } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({
 *   apiKey: 'my-key',
 *   baseUrl: 'https://api.example.com/v1',
 *   onRateLimit: (wait: RateLimitWait) => console.log(`${wait.operation} waits ${wait.waitMs} ms (${wait.reason})`),
 * });
 * ```
 */
export interface RateLimitWait {
  /** The operation that waits: `listPets`, `createPet` or `getPet`. */
  readonly operation: string;
  /** How long it waits, in milliseconds. */
  readonly waitMs: number;
  /**
   * Why: `cooldown` after the service answered 429; `budget` when the rate-limit headers said the
   * window's requests are spent.
   */
  readonly reason: 'cooldown' | 'budget';
}

/** What the gate needs from the client. */
export interface GateOptions {
  /** The clock, in epoch milliseconds. */
  now: () => number;
  /** The longest wait honoured; a longer one fails at once with a {@link RateLimitError}. */
  maxWait: number;
  /** Whether to pace by the rate-limit headers; the cooldown after a 429 applies either way. */
  pacing: boolean;
  /** Told of every timed wait before it starts. */
  onWait?: ((wait: RateLimitWait) => void) | undefined;
}

/** The resolution of `X-RateLimit-Reset`. */
const RESET_RESOLUTION_MS = 1000;

interface Waiter {
  operation: string;
  resolve: () => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | null | undefined;
  onAbort: () => void;
  reported: boolean;
}

/** The gate's verdict for the request at the head of the queue. */
type Verdict = { go: true } | { go: false; until: number; reason: RateLimitWait['reason'] } | { go: false };

export class RequestGate {
  readonly #options: GateOptions;
  readonly #queue: Waiter[] = [];
  #inFlight = 0;
  #reading: RateLimit | null = null;
  #unreported = false;
  #cooldownUntil = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: GateOptions) {
    this.#options = options;
  }

  /** The latest rate-limit reading, or `null` before any response carried one. */
  get rateLimit(): RateLimit | null {
    return this.#reading;
  }

  /**
   * Resolves when `operation` may send, and counts it as in flight until {@link settle}.
   * Rejects when the signal aborts or the wait would be longer than `maxWait`.
   */
  pass(operation: string, signal?: AbortSignal | null): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.#queue.length === 0 && this.#verdict().go) {
      this.#inFlight++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { operation, resolve, reject, signal, onAbort: () => {}, reported: false };
      waiter.onAbort = () => {
        this.#remove(waiter);
        reject(signal?.reason);
        this.#pump();
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /**
   * Records the end of a request that passed: the rate-limit reading of its response (`null`
   * when the response carried none, `undefined` when no response arrived), and for a 429 the
   * wait the service asked for.
   */
  settle(reading: RateLimit | null | undefined, cooldownMs?: number): void {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (reading !== undefined) this.#observe(reading);
    if (cooldownMs !== undefined) {
      this.#cooldownUntil = Math.max(this.#cooldownUntil, this.#options.now() + cooldownMs);
    }
    this.#pump();
  }

  #observe(reading: RateLimit | null): void {
    if (reading === null) {
      this.#unreported = this.#reading === null;
      return;
    }
    this.#unreported = false;
    const current = this.#reading;
    // Responses can arrive out of order: within one window the lowest remaining count is the truest.
    const sameWindow = current !== null && current.reset.getTime() === reading.reset.getTime();
    this.#reading =
      sameWindow && current.remaining < reading.remaining
        ? { ...reading, remaining: current.remaining }
        : reading;
  }

  #verdict(): Verdict {
    const now = this.#options.now();
    if (now < this.#cooldownUntil) return { go: false, until: this.#cooldownUntil, reason: 'cooldown' };
    if (!this.#options.pacing || this.#unreported) return { go: true };
    const reading = this.#reading;
    if (reading !== null && now < reading.reset.getTime()) {
      if (reading.remaining - this.#inFlight > 0) return { go: true };
      return { go: false, until: reading.reset.getTime(), reason: 'budget' };
    }
    // No current reading: one request at a time until a response tells the budget.
    return this.#inFlight === 0 ? { go: true } : { go: false };
  }

  #pump(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      const verdict = this.#verdict();
      if (verdict.go) {
        this.#remove(head);
        this.#inFlight++;
        head.resolve();
        continue;
      }
      if (!('until' in verdict)) return;
      const waitMs = verdict.until - this.#options.now();
      // `X-RateLimit-Reset` is in whole seconds, rounded up: a minute window read just after it
      // opened resets up to a second more than a minute away, which still counts as a minute.
      const slack = verdict.reason === 'budget' ? RESET_RESOLUTION_MS : 0;
      if (waitMs > this.#options.maxWait + slack) {
        this.#remove(head);
        head.reject(tooLong(waitMs));
        continue;
      }
      for (const waiter of this.#queue) {
        if (waiter.reported) continue;
        waiter.reported = true;
        this.#options.onWait?.({ operation: waiter.operation, waitMs, reason: verdict.reason });
      }
      this.#timer = setTimeout(() => this.#pump(), waitMs);
      return;
    }
  }

  #remove(waiter: Waiter): void {
    const index = this.#queue.indexOf(waiter);
    if (index !== -1) this.#queue.splice(index, 1);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }
}

function tooLong(waitMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    status: 429,
    headers: new Headers(),
    body: {
      code: 'client_rate_limited',
      message: `The rate limit requires waiting ${seconds} s, longer than maxRetryWait allows; no request was sent.`,
      status: 429,
    },
    rateLimit: null,
    retryAfterMs: waitMs,
  });
}
