/**
 * What aborts a call's attempt: ky's signal (the attempt's timeout, the caller's signal), and
 * closing with `abort`. ky combines a signal it is given with its own, an `AbortSignal.any` per
 * call, so ky gets the caller's signal alone and each attempt's fetch a controller of its own that
 * follows ky's. The browser twin gives ky the call's controller instead: fewer bytes.
 *
 * @module
 */

/** The signal ky is given for a call: the caller's, if any. */
export const kySignal = (_call: AbortController, caller: AbortSignal | undefined): AbortSignal | null =>
  caller ?? null;

/** An attempt's own controller, following `kySignal` until `end`. */
export function attemptAbort(kySignal: AbortSignal): { controller: AbortController; end(): void } {
  const controller = new AbortController();
  const follow = () => controller.abort(kySignal.reason);
  kySignal.addEventListener('abort', follow);
  if (kySignal.aborted) follow();
  return { controller, end: () => kySignal.removeEventListener('abort', follow) };
}
