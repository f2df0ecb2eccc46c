/**
 * replayed.ts in the browser build: a page's `fetch` is the browser's own, which replays nothing.
 *
 * @module
 */
import type { Log } from '../log.js';

export const noticeReplay = (
  _previous: Response | undefined,
  _response: Response,
  _log: Log,
  _described: string,
  _redact: unknown,
): string | undefined => undefined;
