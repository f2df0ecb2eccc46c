/**
 * Matchers for vitest's and Jest's `expect.extend`: whether a fake store received a request, how many
 * times, or none; a failure names the closest requests it did receive and what differed.
 *
 * @module
 */
import { matchesRequest } from '../disruptions/fault-match.js';
import type { RecordedRequest } from '../store/request-log.js';
import {
  describeMatch,
  describeRequest,
  formatNearMisses,
  nearMisses,
  type RequestMatch,
} from './near-misses.js';

/**
 * What a matcher of {@link fakePetStoreMatchers} returns, as vitest and Jest take it.
 *
 * @inline
 */
export interface MatcherOutcome {
  /** Whether the request log holds what the matcher looks for. */
  readonly pass: boolean;
  /** The failure message, near misses included. */
  readonly message: () => string;
}

/**
 * The matchers' types, to add to the runner's `Matchers` interface (see {@link fakePetStoreMatchers}).
 * Each takes a fake store (`expect(store)`) or a list of logged requests
 * (`expect(await remote.requests)`).
 *
 * @example
 * ```ts
 * import type { FakePetStoreMatchers } from 'animal-store-sdk/testing';
 *
 * type Assertions = FakePetStoreMatchers<void>;
 * ```
 */
export interface FakePetStoreMatchers<R = unknown> {
  /** At least one request matched `match`; with `.not`, none did. */
  toHaveReceivedRequest(match: RequestMatch): R;
  /** Exactly `times` requests matched `match`. */
  toHaveReceivedRequestTimes(match: RequestMatch, times: number): R;
}

function logOf(received: unknown): readonly RecordedRequest[] {
  if (Array.isArray(received)) return received as RecordedRequest[];
  const requests = (received as { requests?: unknown } | null)?.requests;
  if (Array.isArray(requests)) return requests as RecordedRequest[];
  throw new TypeError(
    'Expected a fake store (createFakePetStore()) or its logged requests (store.requests, await remote.requests)',
  );
}

function listed(log: readonly RecordedRequest[], indexes: readonly number[]): string {
  return indexes
    .map((index) => `    #${index + 1} ${describeRequest(log[index] as RecordedRequest)}`)
    .join('\n');
}

function matching(match: RequestMatch, log: readonly RecordedRequest[]): number[] {
  return log.flatMap((request, index) => (matchesRequest(match, request) ? [index] : []));
}

/**
 * Matchers for `expect.extend` in vitest and Jest:
 *
 * - `expect(store).toHaveReceivedRequest(match)`: some request matched; a failure names the closest
 *   requests received and how each differs (method, path, query, headers, body).
 * - `expect(store).not.toHaveReceivedRequest(match)`: none did; a failure lists those that did.
 * - `expect(store).toHaveReceivedRequestTimes(match, n)`: exactly `n` did.
 *
 * `match` takes the fields of a fault's `match` (`method`, `path` with `{name}` segments or a RegExp,
 * `query`, `headers`, `body` holding at least the given fields). Header values that carry keys are
 * never printed.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createFakePetStore, fakePetStoreMatchers, type FakePetStoreMatchers } from 'animal-store-sdk/testing';
 * import { expect, it } from 'vitest';
 *
 * expect.extend(fakePetStoreMatchers);
 * declare module 'vitest' {
 *   interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown>
 *     extends FakePetStoreMatchers<R> {}
 * }
 *
 * it('asks for sold pets once and creates none', async () => {
 *   const store = createFakePetStore();
 *   const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: store.baseUrl, fetch: store.fetch });
 *   await client.listPets({ status: 'sold' });
 *
 *   expect(store).toHaveReceivedRequestTimes({ method: 'GET', path: '/pets', query: { status: 'sold' } }, 1);
 *   expect(store).not.toHaveReceivedRequest({ method: 'POST', path: '/pets' });
 * });
 * ```
 */
export const fakePetStoreMatchers = {
  /** Some logged request matches `match`; a failure names the closest ones, or, with `.not`, those that match. */
  toHaveReceivedRequest(received: unknown, match: RequestMatch): MatcherOutcome {
    const log = logOf(received);
    const found = matching(match, log);
    if (found.length > 0) {
      return {
        pass: true,
        message: () =>
          `Expected the fake store to have received no request matching ${describeMatch(match)}, but it received ${found.length}:\n${listed(log, found)}`,
      };
    }
    return {
      pass: false,
      message: () =>
        `Expected the fake store to have received a request matching ${describeMatch(match)}, but it received none.\n${formatNearMisses(nearMisses(match, log), log.length)}`,
    };
  },

  /** Exactly `times` logged requests match `match`; a failure lists those that do, and near misses when too few. */
  toHaveReceivedRequestTimes(received: unknown, match: RequestMatch, times: number): MatcherOutcome {
    if (!(Number.isSafeInteger(times) && times >= 0)) {
      throw new RangeError(`toHaveReceivedRequestTimes: times must be an integer >= 0, got ${String(times)}`);
    }
    const log = logOf(received);
    const found = matching(match, log);
    const pass = found.length === times;
    const seen = found.length === 0 ? '' : `\n  Those received:\n${listed(log, found)}`;
    const misses = found.length < times ? `\n${formatNearMisses(nearMisses(match, log), log.length)}` : '';
    return {
      pass,
      message: () =>
        pass
          ? `Expected the fake store not to have received exactly ${times} request(s) matching ${describeMatch(match)}, but it did.${seen}`
          : `Expected the fake store to have received ${times} request(s) matching ${describeMatch(match)}, but it received ${found.length}.${seen}${misses}`,
    };
  },
};
