/**
 * The per-client gate every request passes before it is sent.
 *
 * The interface warns that repeated requests after a 429 may get the API key banned, so the
 * client never sends a request it knows will be refused. The gate keeps the queue of a client's
 * waiting requests; a {@link RateLimitStore} keeps the state they are judged by, in this process or
 * shared by many:
 *
 * - After a 429 it holds every request of the key, whatever the operation, until the wait the
 *   service asked for is over (the cooldown).
 * - With pacing on, the store keeps the latest `X-RateLimit-*` reading and counts the requests in
 *   flight; when the window's budget is spent, requests wait until the window resets, and beyond a
 *   burst they go no faster than the budget left spread over the time left. Without a
 *   current reading (before the first response, or once a window has reset) one request goes alone
 *   to learn the budget, so a burst costs at most one refused request.
 *
 * Held requests are released in the order they arrived. A wait longer than `maxWait` fails at
 * once with a {@link RateLimitError}; an aborted signal drops its request from the queue.
 *
 * @module
 */
import { RateLimitError } from '../../errors.js';
import type { RateLimitWait } from '../types.js';
import type {
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';

/** What the gate needs from the client; `Owner` names whoever passes, for {@link GateOptions.onWait}. */
export interface GateOptions<Owner> {
  /** Where the pacing state lives. */
  store: RateLimitStore;
  /** Whose budget the client's requests spend. */
  scope: RateLimitScope;
  /** The longest wait honoured; a longer one fails at once with a {@link RateLimitError}. */
  maxWait: number;
  /** Whether to pace by the rate-limit headers; the cooldown after a 429 applies either way. */
  pacing: boolean;
  /** The share of a window's budget that may go at once, the rest spread over the window. */
  burst?: number | undefined;
  /** Told of every timed wait before it starts, once per wait and waiter, with the waiter's owner. */
  onWait?: ((wait: RateLimitWait, owner: Owner | undefined) => void) | undefined;
}

/** The resolution of `X-RateLimit-Reset`. */
const RESET_RESOLUTION_MS = 1000;

/**
 * How much later than a wait already reported another may end and still be the same wait: a store
 * on another machine measures the same cooldown from a slightly different moment.
 */
const SAME_WAIT_MS = 50;

interface Waiter<Owner> {
  operation: string;
  owner: Owner | undefined;
  leaseMs: number;
  resolve: (lease: string) => void;
  reject: (error: unknown) => void;
  signal: AbortSignal | null | undefined;
  onAbort: () => void;
  /** When the wait last reported for this waiter ends (epoch ms); 0 before any. */
  reportedUntil: number;
}

export class RequestGate<Owner = undefined> {
  readonly #options: GateOptions<Owner>;
  readonly #queue: Waiter<Owner>[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** An asynchronous store is deciding for the head of the queue. */
  #deciding = false;
  /** Something changed while it was deciding: ask again rather than sleep. */
  #changed = false;

  constructor(options: GateOptions<Owner>) {
    this.#options = options;
  }

  /**
   * Resolves with a lease when `operation` may send; the lease goes back with {@link settle}.
   * Rejects when the signal aborts or the wait would be longer than `maxWait`. `reportedUntil` is
   * when a wait the caller already reported ends (a retry after its own 429 waits out the cooldown
   * here): the gate reports only what goes beyond it. `owner` goes with the waiter's waits to `onWait`.
   */
  pass(
    operation: string,
    leaseMs: number,
    signal?: AbortSignal | null,
    reportedUntil = 0,
    owner?: Owner,
  ): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Owner> = {
        operation,
        owner,
        leaseMs,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#remove(waiter);
          reject(signal?.reason);
          this.#pump();
        },
        reportedUntil,
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.#queue.push(waiter);
      this.#pump();
    });
  }

  /** Hands back a lease with what its request learned, and lets the queue move on. */
  settle(lease: string, outcome: RateLimitOutcome): void {
    const released = this.#options.store.release(this.#options.scope, lease, outcome);
    if (isPromiseLike(released)) void Promise.resolve(released).then(this.#pump, this.#pump);
    else this.#pump();
  }

  /** Asks the store for the head of the queue until it must wait. */
  readonly #pump = (): void => {
    if (this.#deciding) {
      this.#changed = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      const decision = this.#options.store.acquire(this.#options.scope, {
        leaseMs: head.leaseMs,
        pacing: this.#options.pacing,
        burst: this.#options.burst,
      });
      if (isPromiseLike(decision)) {
        this.#deciding = true;
        this.#changed = false;
        Promise.resolve(decision).then(
          (answer) => this.#afterAsync(head, answer),
          (failure: unknown) => this.#afterAsync(head, { failure }),
        );
        return;
      }
      if (!this.#decide(head, decision)) return;
    }
  };

  #afterAsync(head: Waiter<Owner>, answer: RateLimitDecision | { failure: unknown }): void {
    this.#deciding = false;
    if ('failure' in answer) {
      this.#remove(head);
      head.reject(answer.failure);
    }
    if ('failure' in answer || this.#decide(head, answer) || this.#changed) this.#pump();
  }

  /**
   * Applies the store's decision to a waiter. Returns `true` when the queue may move on at once,
   * `false` when it sleeps until the decision's wait is over.
   */
  #decide(head: Waiter<Owner>, decision: RateLimitDecision): boolean {
    if (!this.#queue.includes(head)) {
      // Aborted while the store decided: hand an unused lease straight back.
      if (decision.granted) this.settle(decision.lease, {});
      return true;
    }
    if (decision.granted) {
      this.#remove(head);
      head.resolve(decision.lease);
      return true;
    }
    const { waitMs, reason } = decision;
    if (reason !== 'probe') {
      // `X-RateLimit-Reset` is in whole seconds, rounded up: a minute window read just after it
      // opened resets up to a second more than a minute away, which still counts as a minute.
      const slack = reason === 'budget' ? RESET_RESOLUTION_MS : 0;
      if (waitMs > this.#options.maxWait + slack) {
        this.#remove(head);
        head.reject(tooLong(waitMs));
        return true;
      }
      this.#report(waitMs, reason);
    }
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#pump, waitMs);
    return false;
  }

  /**
   * Tells of a wait every queued request now takes, once: a request still inside a wait already
   * reported is told only of what goes beyond it, so the waits reported add up to the time waited.
   */
  #report(waitMs: number, reason: RateLimitWait['reason']): void {
    const now = Date.now();
    const until = now + waitMs;
    for (const waiter of this.#queue) {
      if (until <= waiter.reportedUntil + SAME_WAIT_MS) continue;
      const ms = waiter.reportedUntil > now ? until - waiter.reportedUntil : waitMs;
      waiter.reportedUntil = until;
      this.#options.onWait?.({ operation: waiter.operation, waitMs: ms, reason }, waiter.owner);
    }
  }

  #remove(waiter: Waiter<Owner>): void {
    const index = this.#queue.indexOf(waiter);
    if (index !== -1) this.#queue.splice(index, 1);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
  }
}

/** A store may answer with any promise-like value, not only a native `Promise`. */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>> | null)?.then === 'function';
}

function tooLong(waitMs: number): RateLimitError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitError({
    status: 429,
    headers: new Headers(),
    body: {
      code: 'client_rate_limited',
      message: `The rate limit requires waiting ${seconds} s, beyond maxRetryWait; nothing was sent.`,
      status: 429,
    },
    rateLimit: null,
    retryAfterMs: waitMs,
  });
}
