/**
 * Reading the heap once garbage has been collected. Needs `--expose-gc`.
 *
 * @module
 */
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The heap in use once it has settled, in bytes: full collections with a pause after each, until two
 * readings agree within 64 KB. A single collection is not enough: objects held by a
 * `FinalizationRegistry` (undici registers one entry per `Request` that follows a signal) are freed
 * only after the registry's cleanup task has run, which takes a turn of the event loop and another
 * collection.
 */
export async function settledHeapUsed(): Promise<number> {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('Heap measurements need node --expose-gc');
  let previous = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < 10; attempt++) {
    gc();
    const current = process.memoryUsage().heapUsed;
    if (Math.abs(previous - current) < 64 * 1024) return current;
    previous = current;
    await sleep(20);
  }
  return previous;
}

/** Bytes as MB with one decimal. */
export function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
