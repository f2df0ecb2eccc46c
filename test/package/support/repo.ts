/**
 * Paths in the repository the package is built from.
 *
 * @module
 */
import { fileURLToPath } from 'node:url';

/** The repository's root directory, with a trailing slash. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The Node the repository pins (a dev dependency); the consumer runs on it first. */
export const PINNED_NODE = fileURLToPath(new URL('../../../node_modules/.bin/node', import.meta.url));

/** The repository's TypeScript compiler. */
export const TSC = fileURLToPath(new URL('../../../node_modules/.bin/tsc', import.meta.url));
