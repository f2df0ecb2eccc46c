/**
 * An error with the API key kept out of its message, stack and cause: Node's connection errors
 * name hosts, sockets and headers.
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
