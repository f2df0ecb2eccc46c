/**
 * The contract check in the builds for browsers and Cloudflare Workers, which do not load ajv: a page
 * cannot load a module synchronously on first use, and Workers forbid the code generation ajv relies on.
 *
 * @module
 */
import type { AjvConstructor } from './ajv.js';

/** Throws: these builds have no ajv. */
export function loadAjv(): AjvConstructor {
  throw new TypeError(
    'Checking against the contract runs in Node, Bun and Deno: check the request log there (store.requests, or remote.requests of a fake in another process).',
  );
}
