/**
 * Loading ajv for the contract check in the CommonJS build: with the module's own `require`, on first use.
 *
 * @module
 */
import { type AjvConstructor, ajvClass, ajvUnavailable } from './ajv.js';

/** ajv's JSON Schema 2020-12 class, required on first use. */
export function loadAjv(): AjvConstructor {
  try {
    return ajvClass(require('ajv/dist/2020.js'));
  } catch (error) {
    throw ajvUnavailable(error);
  }
}
