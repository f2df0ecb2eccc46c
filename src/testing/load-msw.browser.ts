/**
 * msw for `store.handlers` in the build for browsers: imported with the entry, as a page has no
 * synchronous way to load a module later, and a page serves the store through msw's worker.
 *
 * @module
 */
import * as msw from 'msw';
import type { MswModule } from './msw.js';

/** msw, imported with the entry. */
export function loadMsw(): MswModule {
  return msw;
}
