/**
 * What a failed call becomes: the {@link PetStoreError} a caller branches on, from the error ky
 * reports. A pure function of the failure and what the call saw.
 *
 * @module
 */
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
  generateAPIError,
  PetStoreError,
  RefusedError,
  type RequestSent,
} from '../../errors.js';
import { isBrowser } from '../browser.js';
import type { RateLimit } from '../types.js';
import { connectionReason } from './connection-reason.js';
import { CORS_HINT } from './cors.js';
import type { RequestedWait } from './retry.js';

/** What the call saw before it failed. */
export interface FailedCall {
  /** `GET /pets`: the request, for messages. */
  readonly where: string;
  /** The caller's signal: when it aborted, the call was aborted, whatever else failed. */
  readonly signal: AbortSignal | undefined;
  /** The text of the last response's body, read in full by the attempt. */
  readonly body?: string | undefined;
  readonly reading?: RateLimit | null | undefined;
  readonly requested?: RequestedWait | undefined;
  /** Keeps the API key out of what the error holds. */
  readonly redact: <V>(value: V) => V;
  readonly attempts: number;
  readonly previous?: Response | undefined;
  /** The latest attempt got no response yet: it may have reached the service. */
  outcomeUnknown?: boolean;
  /** What to tell the caller when it may have (how to find out whether a create happened). */
  readonly spec: { readonly ifUnknown?: string | undefined };
  /** Why a failure the policy would retry was not (the retry budget is spent). */
  notRetried?: string | undefined;
}

/** The error to reject the call with. */
export function toPetStoreError(error: unknown, call: FailedCall): PetStoreError {
  const failure = byKind(error, call);
  if (call.notRetried !== undefined) failure.message += ` Not retried: ${call.notRetried}.`;
  return failure;
}

function byKind(error: unknown, call: FailedCall): PetStoreError {
  const sent: RequestSent = call.outcomeUnknown ? 'maybe' : call.attempts > 0 ? 'yes' : 'no';
  // A request that reached the service, and whose answer was lost or cut short, may have acted.
  const maybe = sent !== 'no' && call.spec.ifUnknown ? ` ${call.spec.ifUnknown}` : '';
  // Only closing reaches a call that sent: the queue's other refusals of a retry end it with the attempt's error.
  if (error instanceof RefusedError && sent !== 'no') {
    return new RefusedError(
      'client_closed',
      `The client was closed while ${call.where} was under way.${maybe}`,
      null,
      sent,
    );
  }
  if (error instanceof PetStoreError) return error;
  if (call.signal?.aborted) {
    return new APIUserAbortError(
      maybe ? `${call.where} was aborted in flight.${maybe}` : 'The request was aborted.',
      {
        cause: call.signal.reason,
        sent,
      },
    );
  }
  if (isHTTPError(error)) {
    const { response } = error;
    return generateAPIError({
      status: response.status,
      statusText: call.redact(response.statusText),
      headers: call.redact(response.headers),
      body: call.redact(error.data ?? (call.body || undefined)),
      rateLimit: call.reading ?? null,
      retryAfterMs: call.requested?.ms,
    });
  }
  // The answer's status arrived and its body did not: the service was reached.
  const status = call.outcomeUnknown ? undefined : call.previous?.status;
  if (isTimeoutError(error)) {
    return new APIConnectionTimeoutError(`${call.where} timed out.${maybe}`, { sent, status });
  }
  // Network failures, and fetch implementations that fail in their own words with a TypeError
  // (as the Fetch standard has them do), mean no response arrived. A browser says the same of a
  // request CORS refused, and keeps the reason to its console.
  if (isNetworkError(error) || error instanceof TypeError) {
    const cause = isNetworkError(error) ? error.cause : error;
    const reason = call.redact(connectionReason(cause));
    const hint = isBrowser() ? CORS_HINT : '';
    return new APIConnectionError(
      `${status ? `The answer (${status}) was cut off for` : 'Could not reach the Animal Store service for'} ${call.where}${reason ? `: ${reason}` : ''}.${status ? '' : hint}${maybe}`,
      { cause: call.redact(cause), sent, status },
    );
  }
  // Anything else (a fetch's or a store's own failure, a bug) reaches the caller as a PetStoreError too.
  return new PetStoreError(`${call.where} failed.${maybe}`, { cause: call.redact(error), sent });
}
