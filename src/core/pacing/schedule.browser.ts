/**
 * The schedule in the browser build: a page's calls come from one user, so no start is estimated
 * (`ESTIMATES` is false: the gate asks no schedule, and each waiter starts, as far as it knows,
 * when the head of the queue does), and none is asked about out of turn nor shared. Same exports;
 * the functions are empty, so that a bundler drops their calls and their arguments.
 *
 * @module
 */
export type { Schedule } from './schedule.js';

export const ESTIMATES = false;

export function scheduleOf(_options: unknown): undefined {}

export function askOutOfTurn(_ask: unknown, _grant: unknown, _then: unknown): undefined {}
