/**
 * The diagnostics channels in the browser build: a page has no `diagnostics_channel`, so no call is
 * ever traced and none of channels.ts's code is bundled. Same exports, each doing nothing.
 *
 * @module
 */

import type { AttemptTrace, OperationTrace } from './channels.js';
import type { StoreMessage } from './diagnostics.js';
import type { RateLimit, RateLimitWait } from './types.js';

export type { AttemptTrace, OperationTrace } from './channels.js';

export function operationTrace(
  _operation: string,
  _method: string,
  _path: string,
  _baseUrl: string,
): OperationTrace | undefined {
  return undefined;
}

export function traceOperation<T>(_call: OperationTrace, run: () => Promise<T>): Promise<T> {
  return run();
}

export function attemptTrace(
  _call: OperationTrace,
  _resendCount: number,
  _request: Request | URL | string,
  _init: RequestInit | undefined,
  _redact: (text: string) => string,
): AttemptTrace | undefined {
  return undefined;
}

export function traceAttempt<T>(_attempt: AttemptTrace, run: () => Promise<T>): Promise<T> {
  return run();
}

export function observeAttempt(
  _call: OperationTrace,
  _attempts: number,
  _attempt: AttemptTrace | undefined,
  _response: Response | undefined,
  _rateLimit: RateLimit | null,
  _redact: (text: string | undefined) => string | undefined,
): void {}

export function publishWait(_call: OperationTrace | undefined, _wait: RateLimitWait): void {}

export function publishStore(_message: StoreMessage): void {}
