/**
 * Why a connection failed, in a page: a browser's fetch says only `Failed to fetch` (or its own
 * words for it), with no cause chain to walk, and keeps the reason to its console.
 *
 * @module
 */

/** The error's own message. */
export const connectionReason = (error: unknown): string => (error instanceof Error ? error.message : '');
