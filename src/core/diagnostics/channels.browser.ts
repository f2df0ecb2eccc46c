/**
 * The diagnostics channels in the browser build: a page has no `diagnostics_channel`, so no call is
 * ever traced and none of channels.ts's code is bundled. Same exports: each runs its call or attempt
 * untraced, or does nothing.
 *
 * @module
 */

import type { RateLimit, RateLimitWait } from '../types.js';
import type { AttemptTrace, CallRoute, OperationTrace, QueueSource, TracedCall } from './channels.js';
import type { StoreMessage } from './diagnostics.js';

export type {
  AttemptTrace,
  CallRoute,
  OperationTrace,
  QueueCounts,
  QueueSource,
  TracedCall,
} from './channels.js';

export function traceCall<T>(
  _operation: string,
  _route: CallRoute,
  _baseUrl: string,
  run: (trace: OperationTrace | undefined) => Promise<T>,
): Promise<T> {
  return run(undefined);
}

/** Empty, so that a bundler drops its calls and what they read. */
export function rawRoute(_request: { readonly method?: unknown }): undefined {}

export function nameCall(
  _trace: OperationTrace | undefined,
  _request: { readonly method: string; readonly path: string },
): void {}

export function traceAttempt<T>(
  _call: TracedCall,
  _request: Request | URL | string,
  _init: RequestInit | undefined,
  run: (attempt: AttemptTrace | undefined) => Promise<T>,
): Promise<T> {
  return run(undefined);
}

export function observeAttempt(
  _call: TracedCall,
  _attempt: AttemptTrace | undefined,
  _response: Response | undefined,
  _rateLimit: RateLimit | null,
): void {}

export function publishWait(_call: TracedCall | undefined, _wait: RateLimitWait): void {}

export function publishStore(_message: StoreMessage): void {}

export function publishQueue(_queue: QueueSource, _operation?: string, _code?: string): void {}
