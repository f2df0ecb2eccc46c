/**
 * What aborts a call's attempt in the browser build: ky gets the call's controller, which closing
 * aborts, so an attempt needs none of its own. Same exports.
 *
 * @module
 */

export const kySignal = (call: AbortController): AbortSignal => call.signal;

export const attemptAbort = (_kySignal: AbortSignal): undefined => undefined;
