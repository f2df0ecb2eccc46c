/**
 * How the transport hands its calls to ky: a client's ky instance, and one call's options. ky
 * counts the attempts; the retry policy decides whether to retry and how long to wait.
 *
 * In this build ky's retry functions and hooks are set once per client, so that ky merges none of
 * them per call: each finds its call from the request or the error ky hands it, and the wait the
 * policy decided is slept before the gate is passed again. The browser build
 * (`ky-calls.browser.ts`) hands them over with each call instead, which weighs less.
 *
 * @module
 */
import ky, { type KyInstance, type Options, type ResponsePromise } from 'ky';
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

/** The most retries any call may ask for (the option's maximum): each call's own is checked here. */
const MAX_RETRIES = 10;

/** The client's ky instance with `defaults`, and how it sends a call. */
export function kyCalls<C extends KyCall>(defaults: Options, side: RetrySide<C>): SendCall<C> {
  // Each attempt's request, and each error an attempt threw, to its call: ky's errors hold the one
  // or wrap the other.
  const calls = new WeakMap<object, C>();
  const callOf = (error: Error): C | undefined => {
    const { request, cause } = error as { request?: object; cause?: object };
    return calls.get(request ?? error) ?? calls.get(cause ?? error) ?? calls.get(error);
  };
  const client: KyInstance = ky.create({
    ...defaults,
    retry: {
      methods: EVERY_METHOD,
      limit: MAX_RETRIES,
      shouldRetry: ({ error, retryCount }) => {
        const call = callOf(error);
        return (
          call !== undefined && retryCount <= call.maxRetries && side.shouldRetry(call, error, retryCount)
        );
      },
      delay: () => 0,
    },
    hooks: {
      beforeRetry: [
        async ({ error }) => {
          const call = callOf(error);
          if (call === undefined) return;
          if (call.retryWaitMs) await sleep(call.retryWaitMs, call.signal);
          await side.beforeRetry(call);
        },
      ],
    },
  });
  return (url, call, { fetch, ...options }) =>
    client(url, {
      ...options,
      fetch: async (request, init) => {
        if (typeof request === 'object') calls.set(request, call);
        try {
          return await fetch(request, init);
        } catch (error) {
          if (typeof error === 'object' && error !== null) calls.set(error, call);
          throw error;
        }
      },
    });
}

/** Waits `ms`, or rejects with the signal's reason once it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
