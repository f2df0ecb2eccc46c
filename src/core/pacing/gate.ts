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
 * Held requests are released in the order they arrived. Each waiter's start comes from the
 * schedule (schedule.ts) whenever the head must wait: a request that cannot start within its bound
 * is refused at once, when it arrives or as soon as the schedule shows it, as is one whose wait is
 * longer than `maxWait` or that finds `maxQueued` waiting; its signal aborting drops it.
 *
 * @module
 */
import type { PetStoreError } from '../../errors.js';
import { queueFull, tooLate, tooLong } from '../queue/refusals.js';
import type { RateLimitWait } from '../types.js';
import { RESET_RESOLUTION_MS } from './rate-limit.js';
import type {
  RateLimitDecision,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './rate-limit-store.js';
// ESTIMATES is false in the browser build, whose schedule estimates no start (schedule.browser.ts).
import { askOutOfTurn, ESTIMATES, type Schedule, scheduleOf } from './schedule.js';

/** What the gate needs from the client; `Owner` names whoever passes, for {@link GateOptions.onWait}. */
export interface GateOptions<Owner> {
  store: RateLimitStore;
  scope: RateLimitScope;
  /** The longest wait the service may ask for (`maxRetryAfter`); a longer one is refused at once. */
  maxWait: number;
  /** Whether to pace by the rate-limit headers; the cooldown after a 429 applies either way. */
  pacing: boolean;
  /** The share of a window's budget that may go at once, the rest spread over the window. */
  burst?: number | undefined;
  /** Told of each waiter's wait once, again only when its reason changes, with the waiter's owner. */
  onWait: (wait: RateLimitWait, owner: Owner | undefined) => void;
  /** The most requests that may wait; one more is refused. */
  maxQueued: number;
  /** Told of every request refused before it waited or while it waited. */
  onRefusal: (error: PetStoreError, operation: string) => void;
  /** Told when the number of requests waiting changes (a request granted at once never waits). */
  onChange: () => void;
}

interface Waiter<Owner> {
  operation: string;
  owner: Owner | undefined;
  leaseMs: number;
  resolve: (lease: string) => void;
  reject: (error: unknown) => void;
  /** When the wait last reported for this waiter ends (epoch ms); 0 before any. */
  reportedUntil: number;
  /** The reasons its wait was reported for, each once, run together ('budgetcooldown'). */
  reported: string;
  /** When it started waiting, and the latest it may start (epoch ms). */
  since: number;
  until: number;
}

export class RequestGate<Owner = undefined> {
  readonly #options: GateOptions<Owner>;
  readonly #queue: Waiter<Owner>[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** An asynchronous store is deciding for the head of the queue. */
  #deciding = false;
  /** Something changed while it was deciding: ask again rather than sleep. */
  #changed = false;
  readonly #schedule: Schedule;
  /** Leases granted and not yet handed back. */
  #leases = 0;

  constructor(options: GateOptions<Owner>) {
    this.#options = options;
    this.#schedule = scheduleOf(options);
  }

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
    until: number,
    signal?: AbortSignal | null,
    reportedUntil = 0,
    owner?: Owner,
  ): Promise<string> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Nothing waits: a request the store grants at once goes without joining the queue.
    const first = this.#queue.length || this.#deciding ? undefined : this.#acquire(leaseMs, until);
    if (first && !isPromiseLike(first) && first.granted) {
      this.#leases++;
      return Promise.resolve(first.lease);
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter<Owner> = {
        operation,
        owner,
        leaseMs,
        resolve,
        reject,
        reportedUntil,
        reported: '',
        since: Date.now(),
        until,
      };
      const { maxQueued } = this.#options;
      if (this.#queue.length >= maxQueued) {
        const { since } = waiter;
        const startMs = ESTIMATES
          ? this.#schedule.startAt(since, maxQueued, this.#leases, since, Infinity, this.#options) - since
          : 0;
        return this.#refuse(waiter, queueFull(maxQueued, startMs));
      }
      this.#queue.push(waiter);
      this.#options.onChange();
      this.#next(first);
      // A request granted at once never waits: its signal is watched only from here, and only while it waits.
      if (this.#queue.includes(waiter)) {
        signal?.addEventListener(
          'abort',
          () => {
            if (this.#drop(waiter, signal.reason)) this.#pump();
          },
          { once: true },
        );
      }
    });
  }

  /** Hands back a lease with what its request learned, and lets the queue move on. */
  settle(lease: string, outcome: RateLimitOutcome): void {
    this.#leases--;
    if (ESTIMATES) this.#schedule.learn(outcome);
    const released = this.#options.store.release(this.#options.scope, lease, outcome);
    if (isPromiseLike(released)) void Promise.resolve(released).then(this.#pump, this.#pump);
    else this.#pump();
  }

  readonly #pump = (): void => this.#next();

  /** Asks the store for the head of the queue until it must wait; `first`: its answer for the head, asked already. */
  #next(first?: RateLimitDecision | PromiseLike<RateLimitDecision>): void {
    if (this.#deciding) {
      this.#changed = true;
      return;
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    for (let head = this.#queue[0]; head !== undefined; head = this.#queue[0]) {
      const decision = first ?? this.#acquire(head.leaseMs, head.until);
      first = undefined;
      if (isPromiseLike(decision)) {
        this.#deciding = true;
        this.#changed = false;
        Promise.resolve(decision).then(
          (answer) => this.#afterAsync(head, answer),
          (failure: unknown) => {
            this.#drop(head, failure);
            this.#afterAsync(head);
          },
        );
        return;
      }
      if (!this.#decide(head, decision)) return;
    }
  }

  /** Asks the store whether a request may go now, within what is left of its bound (`until`). */
  #acquire(leaseMs: number, until: number): RateLimitDecision | PromiseLike<RateLimitDecision> {
    const { store, scope, pacing, burst } = this.#options;
    return store.acquire(scope, { leaseMs, pacing, burst, within: until - Date.now() });
  }

  /** Applies an asynchronous answer (none when the store failed), and asks again unless the head must wait. */
  #afterAsync(head: Waiter<Owner>, answer?: RateLimitDecision): void {
    this.#deciding = false;
    if (!answer || this.#decide(head, answer) || this.#changed) this.#pump();
  }

  /**
   * Applies the store's decision to a waiter. Returns `true` when the queue may move on at once,
   * `false` when it sleeps until the decision's wait is over.
   *
   * A head that must wait gives every waiter its start from the schedule, behind the head's wait:
   * those that cannot start within their bound are refused at once, and each wait is reported once,
   * with its length; again only when its reason changes, and then only what goes beyond the last
   * report. The queue sleeps until the head's wait is over or the earliest bound of those left.
   */
  #decide(head: Waiter<Owner>, decision: RateLimitDecision): boolean {
    if (decision.granted) this.#grant(head, decision.lease);
    if (decision.granted || !this.#queue.includes(head)) return true;
    const { waitMs, reason: headReason } = decision;
    // A budget held by requests out (this client's, or as the store says) may come back: one answered uncounted frees it.
    const held = !!decision.held || (headReason === 'budget' && this.#leases > 0);
    const now = Date.now();
    // The wait the service asked for, as the store answered or as the schedule learned it: an
    // asynchronous answer may have been decided before a 429 that came back meanwhile.
    let askedMs = headReason === 'probe' || held ? 0 : waitMs;
    if (ESTIMATES) askedMs = Math.max(askedMs, this.#schedule.askedAt(now, this.#options.pacing) - now);
    if (askedMs > this.#options.maxWait) {
      this.#refuse(head, tooLong(askedMs));
      return true;
    }
    // The store spreads no call past its bound: a wait beyond it is the budget's, a cooldown's or a probe's.
    const headAt = now + waitMs;
    let ahead = 0;
    let bound = Infinity;
    for (const waiter of [...this.#queue]) {
      const { until, reportedUntil } = waiter;
      const after = held ? now : headAt;
      const at = ESTIMATES
        ? this.#schedule.startAt(after, ahead, held ? 0 : this.#leases, now, until, this.#options)
        : after;
      // A head held by the spread holds no one whose bound comes first.
      if (
        ESTIMATES &&
        at >= until &&
        until >= now &&
        headReason === 'budget' &&
        ahead > 0 &&
        askOutOfTurn(
          () => this.#acquire(waiter.leaseMs, waiter.until),
          (lease) => this.#grant(waiter, lease),
          this.#pump,
        )
      ) {
        continue;
      }
      const reason = ESTIMATES && at > headAt ? 'budget' : headReason;
      if (at > until || until <= now) {
        this.#refuse(waiter, tooLate(at - now, until - now));
        continue;
      }
      if (ESTIMATES) ahead++;
      bound = Math.min(bound, until);
      if (!waiter.reported.includes(reason) && at > reportedUntil + RESET_RESOLUTION_MS) {
        waiter.reported += reason;
        waiter.reportedUntil = at;
        this.#options.onWait(
          { operation: waiter.operation, waitMs: at - (reportedUntil || now), reason },
          waiter.owner,
        );
      }
    }
    if (this.#queue[0] !== head) return true;
    clearTimeout(this.#timer);
    // A poll at the first waiter's bound ends its wait then.
    this.#timer = setTimeout(this.#pump, Math.min(waitMs, bound - Date.now()));
    return false;
  }

  /** Hands `lease` to `waiter` if it still waits, else straight back (it left while the store decided). */
  #grant(waiter: Waiter<Owner>, lease: string): boolean {
    this.#leases++;
    const waiting = this.#remove(waiter);
    if (waiting) waiter.resolve(lease);
    else this.settle(lease, {});
    return waiting;
  }

  #refuse(waiter: Waiter<Owner>, refusal: PetStoreError): void {
    this.#options.onRefusal(refusal, waiter.operation);
    this.#drop(waiter, refusal);
  }

  /** Takes a waiter out of the queue and rejects it; returns whether it still waited. */
  #drop(waiter: Waiter<Owner>, reason: unknown): boolean {
    const waited = this.#remove(waiter);
    waiter.reject(reason);
    return waited;
  }

  /** Takes a waiter out of the queue; returns whether it was there. */
  #remove(waiter: Waiter<Owner>): boolean {
    const index = this.#queue.indexOf(waiter);
    if (index < 0) return false;
    this.#queue.splice(index, 1);
    this.#options.onChange();
    return true;
  }
}

/** A store may answer with any promise-like value, not only a native `Promise`. */
function isPromiseLike<T>(value: T | PromiseLike<T>): value is PromiseLike<T> {
  return typeof (value as Partial<PromiseLike<T>> | null)?.then === 'function';
}
