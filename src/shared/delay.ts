/**
 * Waiting, cut short by a signal: ky's `delay` is internal to ky, and msw's would tie the fake to
 * msw. `setTimeout` is looked up at each call, so fake timers installed later control it.
 *
 * @module
 */

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function delay(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const abort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', abort);
  });
}
