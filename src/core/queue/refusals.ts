/**
 * The client's own refusals: the errors of calls it never sent, each with the `code` that says why.
 *
 * @module
 */
import { ClientClosedError, RateLimitError } from '../../errors.js';

/** The codes of the client's refusals, as the README's error table lists them. */
export type RefusalCode = 'client_rate_limited' | 'client_queue_full' | 'client_deadline' | 'client_closed';

const seconds = (ms: number): string => `${Math.ceil(ms / 100) / 10} s`;

function refused(code: RefusalCode, why: string, retryAfterMs: number | null): RateLimitError {
  const message = `${why}; nothing was sent.`;
  return new RateLimitError({
    status: 429,
    headers: new Headers(),
    body: { code, message, status: 429 },
    rateLimit: null,
    retryAfterMs,
    sent: 'no',
  });
}

/** The service asked for a wait longer than `maxRetryWait`. */
export const tooLong = (waitMs: number): RateLimitError =>
  refused(
    'client_rate_limited',
    `The rate limit asks for a ${seconds(waitMs)} wait, beyond maxRetryWait`,
    waitMs,
  );

/** `maxQueued` calls already wait; `startMs`, when one behind them could start, is the wait to pass on (1 s at least). */
export const queueFull = (maxQueued: number, startMs = 0): RateLimitError =>
  refused('client_queue_full', `${maxQueued} calls already wait (maxQueued)`, Math.max(1000, startMs));

/** The bound of a call's wait to start: its life, and its waits in all. */
const BOUND = 'callTimeout or maxRetryWait';

/** The call cannot start before its bound ends: `startMs` is the least it would wait, `leftMs` its bound. */
export const tooLate = (startMs: number, leftMs: number): RateLimitError =>
  refused(
    'client_deadline',
    `The call would wait ${seconds(startMs)} or more to start, past its ${BOUND} (${seconds(Math.max(0, leftMs))} left)`,
    startMs,
  );

/** The client was closed before the call could be sent. */
export const closedError = (): ClientClosedError =>
  new ClientClosedError('The client is closed; nothing was sent.');

/** Whether an error is one of the client's refusals. */
export const isRefusal = (error: unknown): error is RateLimitError | ClientClosedError =>
  (error instanceof RateLimitError || error instanceof ClientClosedError) && error.sent === 'no';
