/**
 * How the transport hands its calls to ky: a client's ky instance, and one call's options. ky
 * counts the attempts; the retry policy decides whether to retry and how long to wait, and ky sleeps
 * exactly that. The retry functions and hooks go with each call, where the call is known: set once
 * per client, they had to find their call from what ky handed them and sleep the wait themselves,
 * and a fleet pacing alone then let through a second 429 after a Redis node restarted.
 *
 * @module
 */
import ky, { type Options, type ResponsePromise } from 'ky';
import { EVERY_METHOD } from './retry.js';

/** What the wiring needs of a call. */
export interface KyCall {
  readonly signal: AbortSignal | undefined;
  /** Retries this call may make. */
  readonly maxRetries: number;
  /** The wait before the next attempt, as the retry policy decided. */
  retryWaitMs?: number;
}

/** The client's side of a retry. */
export interface RetrySide<C extends KyCall> {
  /** Whether a failed attempt is retried; sets the call's `retryWaitMs` when it is. */
  shouldRetry(call: C, error: Error, retry: number): boolean;
  /** What a retry passes before it is sent (the gate). */
  beforeRetry(call: C): Promise<void>;
}

/** Sends one call: `fetch` sends each attempt. */
export type SendCall<C> = (
  url: string,
  call: C,
  options: Omit<Options, 'fetch' | 'retry' | 'hooks'> & { fetch: NonNullable<Options['fetch']> },
) => ResponsePromise;

/** The client's ky instance with `defaults`, and how it sends a call. */
export function kyCalls<C extends KyCall>(defaults: Options, side: RetrySide<C>): SendCall<C> {
  const client = ky.create({ ...defaults, retry: { methods: EVERY_METHOD } });
  return (url, call, options) =>
    client(url, {
      ...options,
      retry: {
        limit: call.maxRetries,
        shouldRetry: ({ error, retryCount }) => side.shouldRetry(call, error, retryCount),
        delay: () => call.retryWaitMs as number,
      },
      hooks: { beforeRetry: [() => side.beforeRetry(call)] },
    });
}
