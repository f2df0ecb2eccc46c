/**
 * Requests without a reading in the browser build: counted in the window they went in alone, as a
 * page's few calls seldom meet a reset early. Same exports.
 *
 * @module
 */
import type { Sent } from './unanswered.js';

export type { Sent } from './unanswered.js';

export const SPANS_RESETS = false;

export const sentIn = (reading: { window: number } | null): number => reading?.window ?? 0;

export const spentIn = (lost: readonly Sent[], window: number): number =>
  lost.filter((sent) => sent.window === window).length;

export const spentUntil = (): undefined => undefined;
