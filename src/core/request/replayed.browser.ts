/**
 * replayed.ts in the browser build: a page's `fetch` is the browser's own, which replays nothing.
 *
 * @module
 */
import type { Log } from '../log.js';
import type { ReplayedCall } from './replayed.js';

export function noticeReplay(_call: ReplayedCall, _response: Response, _log: Log): undefined {}
