/**
 * redact-error.ts in the browser build: a browser's fetch fails with no detail ("Failed to fetch").
 *
 * @module
 */
export const redactError = (error: Error, _redact: unknown): Error => error;
