/**
 * The attributes of the SDK's spans and metrics: OpenTelemetry's HTTP client conventions for each
 * attempt, and the SDK's own (`animal_store.*`) for what the conventions have no name for.
 *
 * @module
 */
import type { Attributes } from '@opentelemetry/api';
import type { AttemptContext, OperationContext } from '../core/diagnostics/diagnostics.js';

/** The conventions' names, written out: the semantic-conventions package is large for a few strings. */
export const HTTP = {
  method: 'http.request.method',
  status: 'http.response.status_code',
  resendCount: 'http.request.resend_count',
  urlFull: 'url.full',
  urlTemplate: 'url.template',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
} as const;

/** The SDK's own names. */
export const SDK = {
  operation: 'animal_store.operation',
  attempts: 'animal_store.attempts',
  requestId: 'animal_store.request_id',
  rateLimitLimit: 'animal_store.rate_limit.limit',
  rateLimitRemaining: 'animal_store.rate_limit.remaining',
  rateLimitReset: 'animal_store.rate_limit.reset',
  waitReason: 'animal_store.wait.reason',
  waitMs: 'animal_store.wait.ms',
  storeName: 'animal_store.store.name',
  storeShare: 'animal_store.store.share',
  storeReason: 'animal_store.store.reason',
  refusalCode: 'animal_store.refusal.code',
} as const;

/** The names of the events and metrics. */
export const NAMES = {
  waitEvent: 'animal_store.wait',
  storeEvent: (event: 'fallback' | 'return') => `animal_store.store.${event}`,
  operationDuration: 'animal_store.client.operation.duration',
  requestDuration: 'http.client.request.duration',
  waitDuration: 'animal_store.wait.duration',
  queueWaiting: 'animal_store.client.queue.waiting',
  refusals: 'animal_store.client.refusals',
} as const;

/** `GET /pets/{petId}`; the method alone when the path is not known (the conventions' rule). */
export function attemptSpanName(attempt: AttemptContext): string {
  return attempt.call.path === '' ? attempt.method : `${attempt.method} ${attempt.call.path}`;
}

/** What is known of an attempt when it starts, also the attributes of its duration metric. */
export function attemptStartAttributes(attempt: AttemptContext): Attributes {
  const attributes: Attributes = {
    [HTTP.method]: attempt.method,
    [HTTP.urlFull]: attempt.url,
    ...serverOf(attempt.url),
  };
  if (attempt.call.path !== '') attributes[HTTP.urlTemplate] = attempt.call.path;
  if (attempt.resendCount > 0) attributes[HTTP.resendCount] = attempt.resendCount;
  return attributes;
}

/**
 * The attributes of an attempt's `http.client.request.duration`: the conventions' for the metric,
 * without the full URL and the resend count, whose values are too many for a metric.
 */
export function attemptMetricAttributes(attempt: AttemptContext, start: Attributes): Attributes {
  const { [HTTP.urlFull]: _url, [HTTP.resendCount]: _resends, ...attributes } = start;
  if (attempt.status !== undefined) attributes[HTTP.status] = attempt.status;
  const errorType = attemptErrorType(attempt);
  if (errorType !== undefined) attributes[HTTP.errorType] = errorType;
  return attributes;
}

/** What an attempt got: the status, the request id and the rate-limit reading, or why it failed. */
export function attemptEndAttributes(attempt: AttemptContext): Attributes {
  const attributes: Attributes = {};
  if (attempt.status !== undefined) attributes[HTTP.status] = attempt.status;
  const errorType = attemptErrorType(attempt);
  if (errorType !== undefined) attributes[HTTP.errorType] = errorType;
  if (attempt.requestId !== undefined) attributes[SDK.requestId] = attempt.requestId;
  if (attempt.rateLimit) {
    attributes[SDK.rateLimitLimit] = attempt.rateLimit.limit;
    attributes[SDK.rateLimitRemaining] = attempt.rateLimit.remaining;
    attributes[SDK.rateLimitReset] = Math.round(attempt.rateLimit.reset.getTime() / 1000);
  }
  return attributes;
}

/** The status as text for a 4xx or 5xx, else the name of what the fetch failed with (the conventions' rule). */
export function attemptErrorType(attempt: AttemptContext): string | undefined {
  if (attempt.status !== undefined) return attempt.status >= 400 ? String(attempt.status) : undefined;
  return attempt.error === undefined ? undefined : errorName(attempt.error);
}

/** What is known of a call when it starts. */
export function operationStartAttributes(call: OperationContext): Attributes {
  const attributes: Attributes = { [SDK.operation]: call.operation };
  if (call.path !== '') attributes[HTTP.urlTemplate] = call.path;
  return attributes;
}

/**
 * The attributes of a call's `animal_store.client.operation.duration`: the operation, its path
 * template and the service's address, how it ended (the last status, the error's class). No request
 * id and no attempt count: their values are too many for a metric.
 */
export function operationMetricAttributes(call: OperationContext): Attributes {
  const attributes: Attributes = { [SDK.operation]: call.operation, ...serverOf(call.baseUrl) };
  if (call.path !== '') attributes[HTTP.urlTemplate] = call.path;
  if (call.status !== undefined) attributes[HTTP.status] = call.status;
  if (call.error !== undefined) attributes[HTTP.errorType] = errorName(call.error);
  return attributes;
}

/** How a call ended: its attempts, its last status and request id, and the class of its error. */
export function operationEndAttributes(call: OperationContext): Attributes {
  const attributes: Attributes = { [SDK.attempts]: call.attempts };
  // request() learns its path template once its request is checked.
  if (call.path !== '') attributes[HTTP.urlTemplate] = call.path;
  if (call.status !== undefined) attributes[HTTP.status] = call.status;
  if (call.requestId !== undefined) attributes[SDK.requestId] = call.requestId;
  if (call.error !== undefined) attributes[HTTP.errorType] = errorName(call.error);
  return attributes;
}

/** `server.address` and `server.port` of a URL, the port the scheme's when the URL names none. */
function serverOf(href: string): Attributes {
  const url = new URL(href);
  return {
    [HTTP.serverAddress]: url.hostname,
    [HTTP.serverPort]: Number(url.port || (url.protocol === 'https:' ? 443 : 80)),
  };
}

/** An error's class name (`RateLimitError`, `TypeError`), the conventions' `error.type`. */
export function errorName(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}
