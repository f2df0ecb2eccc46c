/**
 * The browser build's pending waits: none kept (see pending-waits.ts), the wait itself unchanged.
 *
 * @module
 */
export { delay as trackedDelay } from './delay.js';

/** Lists nothing. */
export function trackWait(_ms: number, _reason: string): () => void {
  return () => {};
}
