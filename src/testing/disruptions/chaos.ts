/**
 * Reproducible chaos: a seeded share of requests answered with a random fault (and, when asked, held
 * for a random delay), the same faults for the same seed and the same sequence of requests.
 *
 * @module
 */

import type { ChaosRecord, RecordedRequest } from '../store/request-log.js';
import { type AfterOperationFault, isAfterOperationFault } from './after-operation.js';
import { DELAY_RANGE, isDelayInRange } from './delay-range.js';
import { checkMatch, type FaultMatch, matchesRequest } from './fault-match.js';
import { seededRandom } from './seeded-random.js';

/**
 * A fault chaos can give a request: a status (400 to 599), answered with the Error shape as a fault of
 * that status; `'network-error'`, the connection closed without an answer; or a fault that acts after
 * the operation ran ({@link AfterOperationFault}: the pet is created and its answer lost, say).
 *
 * @inline
 */
export type ChaosFault = number | 'network-error' | AfterOperationFault;

/**
 * The faults chaos picks from when none are given, each as likely as the others: the server errors a
 * gateway or a service sends (500, 502, 503, 504), a 429 asking to retry in a second, and a dropped
 * connection.
 */
export const DEFAULT_CHAOS_FAULTS: readonly ChaosFault[] = Object.freeze([
  500,
  502,
  503,
  504,
  429,
  'network-error',
]);

/**
 * Random delays chaos adds when asked: a share of the matching requests, each held a whole number of
 * milliseconds drawn evenly from `min` to `max`.
 *
 * @inline
 */
export interface ChaosDelay {
  /** The share of matching requests held, from 0 to 1. */
  readonly rate: number;
  /** The shortest delay. Default 0. */
  readonly min?: number;
  /** The longest delay, at most `fakePetStoreConstants.maxDelayMs`. */
  readonly max: number;
}

/**
 * What `store.injectChaos` takes.
 *
 * @example
 * ```ts
 * import type { ChaosOptions } from 'animal-store-sdk/testing';
 *
 * const chaos: ChaosOptions = { seed: 42, rate: 0.1 };
 * const reads: ChaosOptions = { seed: 7, rate: 0.3, faults: [503], match: { method: 'GET' } };
 * const slow: ChaosOptions = { seed: 7, rate: 0, delay: { rate: 0.5, max: 300 } };
 * ```
 */
export interface ChaosOptions {
  /** The seed, an integer from 0 to 4294967295: the same seed gives the same faults. */
  readonly seed: number;
  /** The share of matching requests that get a fault, from 0 to 1. */
  readonly rate: number;
  /** The faults picked from, evenly. Default `fakePetStoreConstants.defaultChaosFaults`. */
  readonly faults?: readonly ChaosFault[];
  /** Random delays, independent of the faults. Default none. */
  readonly delay?: ChaosDelay;
  /** Which requests chaos considers. Default every request to the API. */
  readonly match?: Omit<FaultMatch, 'nth'>;
}

/** Chaos as injected into one store: its options, and how many requests it has considered. */
export class Chaos {
  readonly #options: ChaosOptions;
  readonly #faults: readonly ChaosFault[];
  #considered = 0;

  /** @throws TypeError or RangeError when an option is out of range. */
  constructor(options: ChaosOptions) {
    checkChaos(options);
    this.#options = options;
    this.#faults = [...(options.faults ?? DEFAULT_CHAOS_FAULTS)];
  }

  /**
   * Considers a request: when it matches, it gets the next number, and what chaos gives it is drawn
   * from the seed and that number alone. `undefined` when it gets nothing.
   */
  draw(request: RecordedRequest): ChaosRecord | undefined {
    const { seed, rate, delay, match } = this.#options;
    if (!matchesRequest(match, request)) return undefined;
    this.#considered += 1;
    const index = this.#considered;
    // Four draws for every request, whatever the options, so a number's fate depends on the seed alone.
    const random = seededRandom(seed, index);
    const [fails, pick, delayed, span] = [random(), random(), random(), random()];
    const fault = fails < rate ? this.#faults[Math.floor(pick * this.#faults.length)] : undefined;
    const delayMs =
      delay !== undefined && delayed < delay.rate
        ? (delay.min ?? 0) + Math.floor(span * (delay.max - (delay.min ?? 0) + 1))
        : undefined;
    if (fault === undefined && delayMs === undefined) return undefined;
    return {
      seed,
      index,
      ...(fault === 'network-error' ? { networkError: true as const } : {}),
      ...(isAfterOperationFault(fault) ? { afterOperation: fault } : {}),
      ...(typeof fault === 'number' ? { status: fault } : {}),
      ...(delayMs === undefined ? {} : { delayMs }),
    };
  }
}

const MAX_SEED = 0xffff_ffff;

function checkChaos(options: ChaosOptions): void {
  const { seed, rate, faults, delay } = options;
  if (!(Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED)) {
    throw new RangeError(`injectChaos: seed must be an integer from 0 to ${MAX_SEED}, got ${String(seed)}`);
  }
  checkShare('rate', rate);
  if (faults !== undefined) {
    if (!Array.isArray(faults) || faults.length === 0) {
      throw new TypeError(
        'injectChaos: faults must be a non-empty list of statuses, "network-error" and faults after the operation',
      );
    }
    for (const fault of faults) {
      if (fault === 'network-error' || isAfterOperationFault(fault)) continue;
      if (!(Number.isInteger(fault) && fault >= 400 && fault <= 599)) {
        throw new RangeError(
          `injectChaos: each fault must be a status from 400 to 599, "network-error" or a fault after the operation (lost-response, stalled-response, cut-body, dripping-body, stalled-body), got ${String(fault)}`,
        );
      }
    }
  }
  if (delay !== undefined) {
    checkShare('delay.rate', delay.rate);
    const min = delay.min ?? 0;
    for (const [name, value] of [
      ['delay.min', min],
      ['delay.max', delay.max],
    ] as const) {
      if (!isDelayInRange(value)) {
        throw new RangeError(`injectChaos: ${name} must be ${DELAY_RANGE}, got ${String(value)}`);
      }
    }
    if (min > delay.max) throw new RangeError('injectChaos: delay.min must not be above delay.max');
  }
  if ((options.match as FaultMatch | undefined)?.nth !== undefined) {
    throw new TypeError(
      'injectChaos: match.nth is for faults; chaos numbers the requests it considers itself',
    );
  }
  checkMatch(options.match, 'injectChaos');
}

function checkShare(name: string, value: number): void {
  if (!(typeof value === 'number' && value >= 0 && value <= 1)) {
    throw new RangeError(`injectChaos: ${name} must be a number from 0 to 1, got ${String(value)}`);
  }
}
