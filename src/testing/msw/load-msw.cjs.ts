/**
 * Loading msw for `store.handlers` in the CommonJS build: with the module's own `require`, on first
 * use, so that a test runner's module system (Jest's) gives the handlers the msw its tests use.
 *
 * @module
 */
import { type MswModule, mswUnavailable } from './msw.js';

/** msw, required on first use. */
export function loadMsw(): MswModule {
  try {
    return require('msw') as MswModule;
  } catch (error) {
    throw mswUnavailable(error);
  }
}
