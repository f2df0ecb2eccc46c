/**
 * What stands between a request and the service, decided in one order: the request's own `Prefer`
 * (a code, a delay), then the first injected fault that takes it, then chaos.
 *
 * @module
 */

import type { RateLimitState } from '../rules/rate-limiter.js';
import type { JsonReply } from '../rules/responses.js';
import type { ChaosRecord, RecordedRequest } from '../store/request-log.js';
import { Chaos, type ChaosOptions } from './chaos.js';
import {
  effectOf,
  type FaultEffect,
  type FaultOptions,
  FaultQueue,
  type PendingFault,
  statusFault,
} from './faults.js';
import { readPreferences } from './prefer.js';

/**
 * What happens to one request before the service sees it: refused (a `Prefer` the fake cannot
 * honour), or the effects to apply in order (each may wait, then answer or let the request through),
 * and what chaos gave it, for the request log.
 */
export type Disruption =
  | { readonly kind: 'refuse'; readonly reply: JsonReply }
  | { readonly kind: 'apply'; readonly effects: readonly FaultEffect[]; readonly chaos?: ChaosRecord };

/** The rate-limit state a request's key sees now, and the store's time: what a coded 429 needs. */
export type KeyView = () => { readonly state: RateLimitState; readonly now: number };

/** One store's injected faults and chaos, and the decision for each request. */
export class Disruptions {
  readonly #faults = new FaultQueue();
  #chaos: Chaos | undefined;

  /** Adds a fault. @throws TypeError or RangeError when it is invalid. */
  injectFault(fault: FaultOptions): void {
    this.#faults.add(fault);
  }

  /** Starts chaos, replacing any before it. @throws TypeError or RangeError when an option is invalid. */
  injectChaos(options: ChaosOptions): void {
    this.#chaos = new Chaos(options);
  }

  /** Ends chaos. */
  clearChaos(): void {
    this.#chaos = undefined;
  }

  /** The injected faults not used up, with how often each fired. */
  pendingFaults(): readonly PendingFault[] {
    return this.#faults.pending();
  }

  /** Removes every fault and ends chaos. */
  clear(): void {
    this.#faults.clear();
    this.#chaos = undefined;
  }

  /**
   * Decides what happens to a request before the service sees it. A `Prefer: code` answers it
   * whatever the faults; else the first injected fault that takes it; else chaos, which considers only
   * requests no fault took.
   */
  decide(request: RecordedRequest, headers: Headers, view: KeyView): Disruption {
    const preferences = readPreferences(headers);
    if ('status' in preferences) return { kind: 'refuse', reply: preferences };
    const coded = (status: number, delayMs: number | undefined): FaultEffect => {
      const { state, now } = view();
      return effectOf({
        ...statusFault(status, state, now),
        ...(delayMs === undefined ? {} : { delay: delayMs }),
      });
    };
    if (preferences.code !== undefined)
      return { kind: 'apply', effects: [coded(preferences.code, preferences.delayMs)] };
    const effects: FaultEffect[] =
      preferences.delayMs === undefined ? [] : [effectOf({ delay: preferences.delayMs })];
    const fault = this.#faults.take(request);
    if (fault !== undefined) return { kind: 'apply', effects: [...effects, fault] };
    const chaos = this.#chaos?.draw(request);
    if (chaos === undefined) return { kind: 'apply', effects };
    const { status, networkError, delayMs, afterOperation } = chaos;
    const effect =
      status === undefined
        ? effectOf({
            ...(networkError ? { networkError } : {}),
            ...(afterOperation === undefined ? {} : { afterOperation }),
            ...(delayMs === undefined ? {} : { delay: delayMs }),
          })
        : coded(status, delayMs);
    return { kind: 'apply', effects: [...effects, effect], chaos };
  }
}
