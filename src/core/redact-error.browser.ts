/**
 * redact-error.ts in the browser build: a browser's fetch fails with no detail ("Failed to fetch").
 *
 * @module
 */
export function redactError(error: Error): Error {
  return error;
}
