/**
 * The browser build's pending waits: none kept, the wait itself unchanged.
 *
 * @module
 */
import type { WaitRegistry } from './pending-waits.js';

export { delay as trackedDelay } from './delay.js';

export function waitRegistry(): WaitRegistry {
  return { waits: new Set() };
}

export function trackWait(_ms: number, _reason: string): () => void {
  return () => {};
}
