/**
 * Why a connection failed, in the browser build: a browser's fetch says only `Failed to fetch` (or
 * its own words for it), with no cause chain to walk, and keeps the reason to its console. The Edge
 * runtime, which loads this build too, keeps its chain on the error's `cause`.
 *
 * @module
 */

/** The error's own message. */
export const connectionReason = (error: unknown): string => (error instanceof Error ? error.message : '');
