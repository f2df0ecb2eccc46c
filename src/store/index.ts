/**
 * `animal-store-sdk/store`: what a rate-limit store is, for those who share a client's pacing or write
 * a store of their own. The contract ({@link RateLimitStore}: two methods, sync or async) and every
 * rule a store follows are in its doc comment; `animal-store-sdk/redis` is a store across processes.
 *
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createInProcessRateLimitStore } from 'animal-store-sdk/store';
 *
 * const rateLimitStore = createInProcessRateLimitStore();
 * const reads = new PetStoreClient({ apiKey: 'my-key', rateLimitStore });
 * const writes = new PetStoreClient({ apiKey: 'my-key', rateLimitStore, logLevel: 'info' });
 * ```
 *
 * @module
 */
export { type FallbackOptions, withFallback } from '../core/pacing/fallback-store.js';
export { createInProcessRateLimitStore } from '../core/pacing/in-process-store.js';
export type {
  RateLimitAcquire,
  RateLimitAlone,
  RateLimitDecision,
  RateLimitFleet,
  RateLimitObservation,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from '../core/pacing/rate-limit-store.js';
