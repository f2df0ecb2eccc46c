/**
 * What the SDK's diagnostics channels become in OpenTelemetry: an INTERNAL span per call under the
 * caller's active span, a CLIENT span per attempt under it, each wait an event on the call's span,
 * a shared store's fallback and return events on the active span, the durations of calls and
 * waits (and of attempts, when asked) as histograms, the calls waiting as a gauge and the client's
 * refusals as a counter.
 *
 * @module
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { channel, tracingChannel } from 'node:diagnostics_channel';
import {
  type Attributes,
  type Context,
  type Counter,
  context,
  type Gauge,
  type Histogram,
  type Span,
  SpanKind,
  SpanStatusCode,
  type Tracer,
  trace,
} from '@opentelemetry/api';
import {
  type AttemptContext,
  DIAGNOSTICS_CHANNELS,
  type OperationContext,
  type QueueMessage,
  type StoreMessage,
  type WaitMessage,
} from '../core/diagnostics/diagnostics.js';
import {
  attemptEndAttributes,
  attemptErrorType,
  attemptMetricAttributes,
  attemptSpanName,
  attemptStartAttributes,
  HTTP,
  NAMES,
  operationEndAttributes,
  operationMetricAttributes,
  operationStartAttributes,
  SDK,
} from './attributes.js';

/** Where spans and measurements go; read at each use, as the providers may be set later. */
export interface Telemetry {
  tracer(): Tracer;
  operationDuration(): Histogram | undefined;
  /** `undefined` unless asked for: an HTTP instrumentation records the same. */
  requestDuration(): Histogram | undefined;
  waitDuration(): Histogram | undefined;
  queueWaiting(): Gauge | undefined;
  refusals(): Counter | undefined;
  /** Reports a failure inside the instrumentation, which must never reach the application. */
  fail(error: unknown): void;
}

/** A call's span as the active context, and when the call started. */
interface CallSpan {
  readonly active: Context;
  readonly started: number;
}

/** An attempt's span, with what its metric needs. */
interface AttemptSpan {
  readonly span: Span;
  readonly started: number;
  readonly attributes: Attributes;
}

/**
 * Subscribes to the channels; the function returned unsubscribes.
 *
 * Each call's and attempt's span is made the active one for all that the call or attempt does (its
 * `fetch`, so that undici's spans nest under the attempt's), through `bindStore` with a store whose
 * `run` is OpenTelemetry's own `context.with`: whatever context manager is registered, when it is.
 */
export function subscribe(telemetry: Telemetry): () => void {
  const calls = new WeakMap<OperationContext, CallSpan>();
  const attempts = new WeakMap<AttemptContext, AttemptSpan>();
  // Channels call nothing of a bound store but `run`; OpenTelemetry keeps its AsyncLocalStorage private.
  const activeSpan = {
    run: <R>(active: Context, fn: () => R): R => context.with(active, fn),
  } as unknown as AsyncLocalStorage<Context>;

  const startCall = (call: OperationContext): Context => {
    const parent = context.active();
    try {
      const span = telemetry
        .tracer()
        .startSpan(
          call.operation,
          { kind: SpanKind.INTERNAL, attributes: operationStartAttributes(call) },
          parent,
        );
      const active = trace.setSpan(parent, span);
      calls.set(call, { active, started: performance.now() });
      return active;
    } catch (error) {
      telemetry.fail(error);
      return parent;
    }
  };

  const endCall = (call: OperationContext): void => {
    const record = calls.get(call);
    if (record === undefined) return;
    const span = trace.getSpan(record.active);
    if (span !== undefined) {
      span.setAttributes(operationEndAttributes(call));
      if (call.error !== undefined) failed(span, call.error);
      span.end();
    }
    const seconds = (performance.now() - record.started) / 1000;
    telemetry.operationDuration()?.record(seconds, operationMetricAttributes(call));
  };

  const startAttempt = (attempt: AttemptContext): Context => {
    const parent = calls.get(attempt.call)?.active ?? context.active();
    try {
      const attributes = attemptStartAttributes(attempt);
      const span = telemetry
        .tracer()
        .startSpan(attemptSpanName(attempt), { kind: SpanKind.CLIENT, attributes }, parent);
      attempts.set(attempt, { span, started: performance.now(), attributes });
      return trace.setSpan(parent, span);
    } catch (error) {
      telemetry.fail(error);
      return parent;
    }
  };

  const endAttempt = (attempt: AttemptContext): void => {
    const record = attempts.get(attempt);
    if (record === undefined) return;
    const { span, started, attributes } = record;
    span.setAttributes(attemptEndAttributes(attempt));
    if (attempt.status === undefined && attempt.error !== undefined) failed(span, attempt.error);
    else if (attemptErrorType(attempt) !== undefined) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
    const requestDuration = telemetry.requestDuration();
    if (requestDuration === undefined) return;
    const seconds = (performance.now() - started) / 1000;
    requestDuration.record(seconds, attemptMetricAttributes(attempt, attributes));
  };

  const onWait = (message: unknown): void => {
    const { call, reason, ms } = message as WaitMessage;
    spanOf(calls.get(call)?.active)?.addEvent(NAMES.waitEvent, {
      [SDK.waitReason]: reason,
      [SDK.waitMs]: ms,
    });
    telemetry
      .waitDuration()
      ?.record(ms / 1000, { [SDK.operation]: call.operation, [SDK.waitReason]: reason });
  };

  const onStore = (message: unknown): void => {
    const { event, store, share, reason } = message as StoreMessage;
    const attributes: Attributes = { [SDK.storeName]: store };
    if (share !== undefined) attributes[SDK.storeShare] = share;
    if (reason !== undefined) attributes[SDK.storeReason] = reason;
    trace.getActiveSpan()?.addEvent(NAMES.storeEvent(event), attributes);
  };

  const onQueue = (message: unknown): void => {
    const { event, baseUrl, waiting, operation, code } = message as QueueMessage;
    const server = { [HTTP.serverAddress]: new URL(baseUrl).hostname };
    telemetry.queueWaiting()?.record(waiting, server);
    if (event === 'refusal') {
      telemetry.refusals()?.add(1, { ...server, [SDK.operation]: operation, [SDK.refusalCode]: code });
    }
  };

  const operation = tracingChannel<Context, OperationContext>(DIAGNOSTICS_CHANNELS.operation);
  const attempt = tracingChannel<Context, AttemptContext>(DIAGNOSTICS_CHANNELS.attempt);
  const wait = channel(DIAGNOSTICS_CHANNELS.wait);
  const store = channel(DIAGNOSTICS_CHANNELS.store);
  const queue = channel(DIAGNOSTICS_CHANNELS.queue);
  const guarded =
    <M>(handle: (message: M) => void) =>
    (message: unknown) => {
      try {
        handle(message as M);
      } catch (error) {
        telemetry.fail(error);
      }
    };
  const handlers = {
    endCall: guarded(endCall),
    endAttempt: guarded(endAttempt),
    wait: guarded(onWait),
    store: guarded(onStore),
    queue: guarded(onQueue),
  };
  operation.start.bindStore(activeSpan, startCall);
  operation.asyncEnd.subscribe(handlers.endCall);
  attempt.start.bindStore(activeSpan, startAttempt);
  attempt.asyncEnd.subscribe(handlers.endAttempt);
  wait.subscribe(handlers.wait);
  store.subscribe(handlers.store);
  queue.subscribe(handlers.queue);
  return () => {
    operation.start.unbindStore(activeSpan);
    operation.asyncEnd.unsubscribe(handlers.endCall);
    attempt.start.unbindStore(activeSpan);
    attempt.asyncEnd.unsubscribe(handlers.endAttempt);
    wait.unsubscribe(handlers.wait);
    store.unsubscribe(handlers.store);
    queue.unsubscribe(handlers.queue);
  };
}

function spanOf(active: Context | undefined): Span | undefined {
  return active === undefined ? undefined : trace.getSpan(active);
}

/**
 * Marks a span failed by `error`, recorded as an exception event whose type is the error's class:
 * OpenTelemetry would take an `APIError`'s `code` (`not_found`) for it.
 */
function failed(span: Span, error: unknown): void {
  if (error instanceof Error) {
    const { name, message, stack } = error;
    span.recordException(stack === undefined ? { name, message } : { name, message, stack });
  }
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: error instanceof Error ? error.message : String(error),
  });
}
