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
 * once with a {@link RateLimitError}, as does a request that cannot start within its bound
 * (admission.ts judges) or that finds `maxQueued` waiting; its bound ending or its signal aborting
 * drops a request from the queue.
 *
 * @module
 */
import type { PetStoreError } from '../../errors.js';
import { Admission } from '../queue/admission.js';
import { expired, tooLong } from '../queue/refusals.js';
import type { RateLimitWait } from '../types.js';
import { RESET_RESOLUTION_MS } from './rate-limit.js';
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
  /** The most requests that may wait; one more is refused. */
  maxQueued: number;
  /** Told of every request refused before it waited or while it waited, with its owner. */
  onRefusal?: ((error: PetStoreError, operation: string, owner: Owner | undefined) => void) | undefined;
  /** Told when the number of requests waiting changes. */
  onChange?: (() => void) | undefined;
}

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
  /** When it started waiting, and the latest it may start (epoch ms). */
  since: number;
  until: number;
  bound?: ReturnType<typeof setTimeout> | undefined;
}

export class RequestGate<Owner = undefined> {
  readonly #options: GateOptions<Owner>;
  readonly #queue: Waiter<Owner>[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** An asynchronous store is deciding for the head of the queue. */
  #deciding = false;
  /** Something changed while it was deciding: ask again rather than sleep. */
  #changed = false;
  readonly #admission = new Admission();
  /** Leases granted and not yet handed back. */
  #leases = 0;

  constructor(options: GateOptions<Owner>) {
    this.#options = options;
  }

  /** How many requests wait. */
  get waiting(): number {
    return this.#queue.length;
  }

  /** How long the request that has waited longest (the first in the queue) has waited, in ms. */
  oldestWaitMs(now: number): number {
    return now - (this.#queue[0]?.since ?? now);
  }

  /**
   * Resolves with a lease when `operation` may send; the lease goes back with {@link settle}.
   * Rejects when the signal aborts, when the wait would be longer than `maxWait`, when `maxQueued`
   * wait already, or when the request cannot start by `until` (epoch ms). `reportedUntil` is when
   * a wait the caller already reported ends (a retry after its own 429 waits out the cooldown here):
   * the gate reports only what goes beyond it. `owner` goes with the waiter's waits to `onWait`.
   */
  pass(
    operation: string,
    leaseMs: number,
    signal?: AbortSignal | null,
    reportedUntil = 0,
    owner?: Owner,
    until = Number.POSITIVE_INFINITY,
  ): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const now = Date.now();
    const refusal = this.#admission.refusal({
      ...this.#options,
      waiting: this.#queue.length,
      leases: this.#leases,
      now,
      until,
    });
    if (refusal) {
      this.#options.onRefusal?.(refusal, operation, owner);
      return Promise.reject(refusal);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Owner> = {
        operation,
        owner,
        leaseMs,
        resolve,
        reject,
        signal,
        onAbort: () => {
          this.#drop(waiter, signal?.reason);
          this.#pump();
        },
        reportedUntil,
        since: now,
        until,
      };
      this.#queue.push(waiter);
      this.#options.onChange?.();
      this.#pump();
      // A request granted at once never waits: its signal and bound are watched only from here.
      if (!this.#queue.includes(waiter)) return;
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      if (until !== Number.POSITIVE_INFINITY) {
        waiter.bound = setTimeout(() => {
          // A wait that ends with the bound goes first.
          this.#pump();
          if (!this.#queue.includes(waiter)) return;
          this.#refuse(waiter, expired(Date.now() - waiter.since));
          this.#pump();
        }, until - now);
      }
    });
  }

  /** Hands back a lease with what its request learned, and lets the queue move on. */
  settle(lease: string, outcome: RateLimitOutcome): void {
    this.#leases--;
    this.#admission.learn(outcome, Date.now());
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
    if ('failure' in answer) this.#drop(head, answer.failure);
    if ('failure' in answer || this.#decide(head, answer) || this.#changed) this.#pump();
  }

  /**
   * Applies the store's decision to a waiter. Returns `true` when the queue may move on at once,
   * `false` when it sleeps until the decision's wait is over.
   */
  #decide(head: Waiter<Owner>, decision: RateLimitDecision): boolean {
    if (decision.granted) this.#leases++;
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
        this.#refuse(head, tooLong(waitMs));
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

  #refuse(waiter: Waiter<Owner>, refusal: PetStoreError): void {
    this.#options.onRefusal?.(refusal, waiter.operation, waiter.owner);
    this.#drop(waiter, refusal);
  }

  /** Takes a waiter out of the queue and rejects it. */
  #drop(waiter: Waiter<Owner>, reason: unknown): void {
    this.#remove(waiter);
    waiter.reject(reason);
  }

  #remove(waiter: Waiter<Owner>): void {
    const index = this.#queue.indexOf(waiter);
    if (index === -1) return;
    this.#queue.splice(index, 1);
    waiter.signal?.removeEventListener('abort', waiter.onAbort);
    clearTimeout(waiter.bound);
    this.#options.onChange?.();
  }
}

/** A store may answer with any promise-like value, not only a native `Promise`. */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>> | null)?.then === 'function';
}
