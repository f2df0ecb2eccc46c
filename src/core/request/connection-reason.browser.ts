/**
 * Why a connection failed, in the browser build: a browser's fetch error has no cause chain, only
 * its message.
 *
 * @module
 */

/** The error's own message. */
export const connectionReason = (error: unknown): string => (error instanceof Error ? error.message : '');
