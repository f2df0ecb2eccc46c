/**
 * The waits on a timer now pending, so that the testing helpers can name a call held by a fake clock
 * nobody steps. The list lives on `globalThis`, shared by every copy of the package in a process; the
 * browser build keeps none.
 *
 * @module
 */
import { delay } from './delay.js';

/** One pending wait. */
export interface PendingWait {
  /** How long it waits, in milliseconds. */
  readonly ms: number;
  /** Who waits, and for what: "the client, before retrying". */
  readonly reason: string;
  /** `Date.now()` when it started. */
  readonly startedAt: number;
}

/** The pending waits, and what the testing helpers do when one starts. */
export interface WaitRegistry {
  readonly waits: Set<PendingWait>;
  onWait?: ((wait: PendingWait) => void) | undefined;
}

const KEY = Symbol.for('animal-store-sdk.pending-waits');

/** The process's registry, created on first use. */
export function waitRegistry(): WaitRegistry {
  const holder = globalThis as { [KEY]?: WaitRegistry };
  holder[KEY] ??= { waits: new Set() };
  return holder[KEY];
}

/** Lists a wait until the returned function is called. */
export function trackWait(ms: number, reason: string): () => void {
  const registry = waitRegistry();
  const wait: PendingWait = { ms, reason, startedAt: Date.now() };
  registry.waits.add(wait);
  registry.onWait?.(wait);
  return () => registry.waits.delete(wait);
}

/**
 * {@link delay}, listed among the pending waits while it waits (a wait of 0 ms is not: the client's
 * retry after a 429 waits in its gate instead); `reason` says whose wait it is.
 */
export function trackedDelay(
  ms: number,
  signal: AbortSignal | undefined,
  reason = 'the client, before retrying',
): Promise<void> {
  if (ms <= 0) return delay(ms, signal);
  return delay(ms, signal).finally(trackWait(ms, reason));
}
