/**
 * `animal-store-sdk/diagnostics`: the names of the client's `node:diagnostics_channel` channels and the
 * shape of what each carries, for a tracer of your own. Names and types only: importing it loads
 * nothing of the client. `animal-store-sdk/otel` turns the same channels into OpenTelemetry spans.
 *
 * ```ts
 * import { subscribe } from 'node:diagnostics_channel';
 * import { DIAGNOSTICS_CHANNELS, type WaitMessage } from 'animal-store-sdk/diagnostics';
 *
 * subscribe(DIAGNOSTICS_CHANNELS.wait, (message) => {
 *   const { operation, reason, ms } = message as WaitMessage;
 *   console.log(`${operation} waits ${ms} ms (${reason})`);
 * });
 * ```
 *
 * @module
 */
export {
  type AttemptContext,
  DIAGNOSTICS_CHANNELS,
  type OperationContext,
  type QueueMessage,
  type StoreMessage,
  type WaitMessage,
} from '../core/diagnostics/diagnostics.js';
