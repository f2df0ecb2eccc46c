/**
 * Admission in the browser build: a page's calls come from one user, not a server's crowd, so every
 * call may wait but past `maxQueued`; its bound still ends the wait. Same exports.
 *
 * @module
 */
import type { RateLimitError } from '../../errors.js';
import type { Schedule } from '../pacing/schedule.js';
import type { Asking } from './admission.js';
import { queueFull } from './refusals.js';

export type { Asking } from './admission.js';

export const refusal = (_schedule: Schedule, { waiting, maxQueued }: Asking): RateLimitError | undefined =>
  waiting >= maxQueued ? queueFull(maxQueued) : undefined;
