/**
 * Reading the service's `X-RateLimit-*` headers. Pure functions of the headers.
 *
 * @module
 */
import type { RateLimitObservation } from './rate-limit-store.js';

/**
 * What the service said about the caller's rate limit in its latest response.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type RateLimit } from 'animal-store-sdk';
 *
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * await client.listPets();
 * const rateLimit: RateLimit | null = client.rateLimit;
 * if (rateLimit && rateLimit.remaining < 5) {
 *   console.log(`Only ${rateLimit.remaining} requests left until ${rateLimit.reset.toISOString()}`);
 * }
 * ```
 */
export interface RateLimit {
  /** The limit in force for the caller (`X-RateLimit-Limit`). */
  readonly limit: number;
  /** Requests left in the current window (`X-RateLimit-Remaining`). */
  readonly remaining: number;
  /** When the window resets (`X-RateLimit-Reset`, a unix timestamp in seconds). */
  readonly reset: Date;
}

const nonNegativeInteger = /^\d+$/;

function readInteger(headers: Headers, name: string): number | undefined {
  const value = headers.get(name)?.trim();
  if (value === undefined || !nonNegativeInteger.test(value)) return undefined;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : undefined;
}

/**
 * Reads the three `X-RateLimit-*` headers. Returns `null` unless all three are present and are
 * non-negative integers, so a malformed header never produces a half-true reading.
 */
export function parseRateLimit(headers: Headers): RateLimit | null {
  const limit = readInteger(headers, 'x-ratelimit-limit');
  const remaining = readInteger(headers, 'x-ratelimit-remaining');
  const reset = readInteger(headers, 'x-ratelimit-reset');
  if (limit === undefined || remaining === undefined || reset === undefined) return null;
  return { limit, remaining, reset: new Date(reset * 1000) };
}

/**
 * How far past the `Date` header's second a response may arrive and still show that this host's
 * clock agrees with the service's: the rest of that second plus the time on the wire.
 */
const CLOCK_AGREEMENT_MS = 1_500;

/**
 * The service's time when it sent the response, so that waits measured from it do not depend on
 * this host's clock. The `Date` header has whole seconds: when the arrival time falls within its
 * second (give or take the time on the wire), the host's clock agrees and, being finer, is used;
 * otherwise the host's clock is off and the header is used, rounded down so that waits err long.
 * Without a valid header, the arrival time.
 */
export function responseTime(headers: Headers, arrival: number): number {
  const date = headers.get('date');
  const time = date === null ? Number.NaN : Date.parse(date);
  if (Number.isNaN(time)) return arrival;
  return arrival >= time && arrival < time + CLOCK_AGREEMENT_MS ? arrival : time;
}

/**
 * A response's reading as a store takes it: the reset relative to the response's own time, so a host
 * whose clock is off neither waits too long nor sends too early.
 */
export function observeRateLimit(
  reading: RateLimit,
  headers: Headers,
  arrival: number,
): RateLimitObservation {
  const window = reading.reset.getTime() / 1000;
  const resetInMs = Math.max(0, reading.reset.getTime() - responseTime(headers, arrival));
  return { limit: reading.limit, remaining: reading.remaining, resetInMs, window };
}
