/**
 * The browser build's pending waits: none kept (see pending-waits.ts), the wait itself unchanged.
 *
 * @module
 */
import type { WaitRegistry } from './pending-waits.js';

export { delay as trackedDelay } from './delay.js';

/** A registry that stays empty. */
export function waitRegistry(): WaitRegistry {
  return { waits: new Set() };
}

/** Lists nothing. */
export function trackWait(_ms: number, _reason: string): () => void {
  return () => {};
}
