/**
 * replayed.ts in the browser build: a page's `fetch` is the browser's own, so no retry is looked at
 * for a replayed response. Same exports.
 *
 * @module
 */

export const replayedId = (_previous: Response | undefined, _response: Response): string | undefined =>
  undefined;

export const REPLAYED_NOTE = '';

export const replayedWarning = (_described: string, _id: string): string => '';
