/**
 * The browser build's twin of redact-error.ts: a browser's fetch fails with no detail at all
 * ("Failed to fetch"), so an error is kept as it is.
 *
 * @module
 */
export const redactError = (error: Error, _redact: unknown): Error => error;
