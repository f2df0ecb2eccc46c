/**
 * Loading ajv for the contract check, in the ES module build for Node, Bun and Deno: synchronously, on
 * first use, as msw is (msw/load-msw.ts), so that the fake never loads it otherwise. Its variants:
 * load-ajv.cjs.ts (the CommonJS build) and load-ajv.browser.ts (browsers and Workers).
 *
 * @module
 */
import { type AjvConstructor, ajvClass, ajvUnavailable } from './ajv.js';

/** ajv's JSON Schema 2020-12 class, loaded with a `require` of this module's own. */
export function loadAjv(): AjvConstructor {
  try {
    const { createRequire } = process.getBuiltinModule('node:module');
    return ajvClass(createRequire(import.meta.url)('ajv/dist/2020.js'));
  } catch (error) {
    throw ajvUnavailable(error);
  }
}
