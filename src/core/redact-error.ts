/**
 * An error with the API key kept out of its message, stack and cause: the errors of a connection
 * in Node name hosts, sockets and headers. The browser build has a twin that keeps each error as
 * it is (redact-error.browser.ts): a browser's fetch fails with no detail at all.
 *
 * @module
 */

/** The error itself when `redact` changes none of its fields; else a copy (same class) with them redacted. */
export function redactError(error: Error, redact: (field: unknown) => unknown): Error {
  const copy = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error));
  let changed = false;
  for (const name of ['message', 'stack', 'cause'] as const) {
    const redacted = redact(error[name]);
    if (redacted !== error[name]) {
      copy[name] = redacted;
      changed = true;
    }
  }
  return changed ? copy : error;
}
