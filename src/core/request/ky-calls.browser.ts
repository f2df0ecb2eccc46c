/**
 * The browser build's `ky-calls.ts`: ky's retry functions and hooks are handed over with each
 * call, where the call is known, and ky sleeps the wait the policy decided. This weighs less than
 * finding the call from what ky hands a client-wide function, and a page makes few calls.
 *
 * @module
 */
import ky from 'ky';
import type { KyCall, RetrySide, SendCall } from './ky-calls.js';
import { EVERY_METHOD } from './retry.js';

export type { KyCall, RetrySide, SendCall } from './ky-calls.js';

export function kyCalls<C extends KyCall>(
  defaults: Parameters<typeof ky.create>[0],
  side: RetrySide<C>,
): SendCall<C> {
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
