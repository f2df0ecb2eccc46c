/**
 * Reading the service's `X-RateLimit-*` headers, and what a response tells the rate-limit store.
 * Pure functions of the response and the arrival time.
 *
 * @module
 */
import type { RateLimitObservation, RateLimitOutcome } from './rate-limit-store.js';
import { responseTime } from './response-time.js';
import { requestedWait } from './retry.js';

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

/**
 * What a response, with its rate-limit reading, tells the rate-limit store. Only a success without
 * rate-limit headers says the service does not report them: an error may come from a proxy in front
 * of it. A 429 carries the wait it asked for, as the cooldown.
 */
export function rateLimitOutcome(
  { headers, status, ok }: Response,
  reading: RateLimit | null,
  arrival: number,
): RateLimitOutcome {
  return {
    reading: reading === null ? (ok ? null : undefined) : observeRateLimit(reading, headers, arrival),
    cooldownMs: status === 429 ? requestedWait(headers, arrival) : undefined,
  };
}

/** Responses can arrive out of order: within one window the lowest remaining count is the truest. */
export function latestReading(current: RateLimit | null, reading: RateLimit): RateLimit {
  const sameWindow = current !== null && current.reset.getTime() === reading.reset.getTime();
  return sameWindow && current.remaining < reading.remaining
    ? { ...reading, remaining: current.remaining }
    : reading;
}
