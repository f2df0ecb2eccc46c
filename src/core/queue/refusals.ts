/**
 * The client's own refusals: the errors of calls it never sent, each with the `code` that says why.
 *
 * @module
 */
import { RefusedError } from '../../errors.js';

const seconds = (ms: number): string => `${Math.ceil(ms / 100) / 10} s`;

const refused = (code: RefusedError['code'], why: string, retryAfterMs: number | null): RefusedError =>
  new RefusedError(code, `${why}; nothing was sent.`, retryAfterMs);

/** The service asked for a wait longer than `maxRetryAfter`. */
export const tooLong = (waitMs: number): RefusedError =>
  refused(
    'client_rate_limited',
    `The rate limit asks for a ${seconds(waitMs)} wait, beyond maxRetryAfter`,
    waitMs,
  );

/** `maxQueued` calls already wait; `startMs`, when one behind them could start, is the wait to pass on (1 s at least). */
export const queueFull = (maxQueued: number, startMs: number): RefusedError =>
  refused('client_queue_full', `${maxQueued} calls already wait (maxQueued)`, Math.max(1000, startMs));

/** The call cannot start before its bound ends: `startMs` is the least it would wait, `leftMs` its bound. */
export const tooLate = (startMs: number, leftMs: number): RefusedError =>
  refused(
    'client_deadline',
    `The call would wait ${seconds(startMs)} or more to start, beyond callTimeout or maxQueueWait (${seconds(Math.max(0, leftMs))} left)`,
    startMs,
  );

/** The client was closed before the call could be sent. */
export const closedError = (): RefusedError => refused('client_closed', 'The client is closed', null);

/** Whether an error is one of the client's refusals, nothing sent. */
export const isRefusal = (error: unknown): error is RefusedError =>
  error instanceof RefusedError && error.sent === 'no';
