/**
 * What the diagnostics channels cost a call: with no subscriber, with a bare subscriber on every
 * channel, with the OpenTelemetry instrumentation recording every span and metric, and with the
 * setup docs/observability.md recommends (undici's instrumentation too, trace context sent), beside
 * the builds passed with `--variant` (an earlier commit, before the channels) and raw fetch.
 *
 * @module
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { DIAGNOSTICS_CHANNELS } from '../../src/diagnostics/index.js';
import { PetStoreInstrumentation } from '../../src/otel/index.js';
import {
  measureCases,
  type OverheadCase,
  type OverheadResult,
  rawContender,
  type SdkBuild,
  sdkContender,
} from './client-overhead.js';
import type { LoopbackServer } from './start-loopback-server.js';
import type { Contender } from './timing.js';

const TRACE_EVENTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/** Does nothing with every event of every channel: what the channels cost when someone listens. */
function bareSubscriber(): NonNullable<Contender['around']> {
  const ignore = () => {};
  const traced = [DIAGNOSTICS_CHANNELS.operation, DIAGNOSTICS_CHANNELS.attempt].map((name) =>
    tracingChannel(name),
  );
  const plain = [DIAGNOSTICS_CHANNELS.wait, DIAGNOSTICS_CHANNELS.store];
  return {
    before: () => {
      for (const channel of traced) for (const event of TRACE_EVENTS) channel[event].subscribe(ignore);
      for (const name of plain) subscribe(name, ignore);
    },
    after: () => {
      for (const channel of traced) for (const event of TRACE_EVENTS) channel[event].unsubscribe(ignore);
      for (const name of plain) unsubscribe(name, ignore);
    },
  };
}

/** Drops what it is given: the cost measured is making and ending spans, not shipping them. */
const DISCARD: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: async () => {},
};

class NeverCollected extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/**
 * OpenTelemetry as an application runs it (what `NodeSDK` sets up): AsyncLocalStorage context, W3C
 * trace context, every span sampled and batched to an exporter, the histograms recorded.
 */
function startOpenTelemetry(): MeterProvider {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(DISCARD)] }),
  );
  return new MeterProvider({ readers: [new NeverCollected()] });
}

/** Registers `instrumentations`, enabled for the contender's rounds only. */
function instrumented(
  meterProvider: MeterProvider,
  instrumentations: readonly Instrumentation[],
): NonNullable<Contender['around']> {
  registerInstrumentations({ instrumentations: [...instrumentations], meterProvider });
  const each = (action: 'enable' | 'disable') => () => {
    for (const instrumentation of instrumentations) instrumentation[action]();
  };
  each('disable')();
  return { before: each('enable'), after: each('disable') };
}

/**
 * The contenders of each case: the SDK four ways (no subscriber, a bare one, the SDK's
 * instrumentation alone, the docs' setup with undici's), the other builds, raw fetch.
 */
export function measureTracingOverhead(
  server: LoopbackServer,
  builds: readonly SdkBuild[],
  cases: readonly OverheadCase[],
  calls: number,
): Promise<OverheadResult[]> {
  const [current, ...others] = builds;
  if (current === undefined) throw new Error('No SDK build to measure');
  const bare = bareSubscriber();
  const meterProvider = startOpenTelemetry();
  const sdkAlone = instrumented(meterProvider, [new PetStoreInstrumentation({ enabled: false })]);
  const docsSetup = instrumented(meterProvider, [
    new PetStoreInstrumentation({ enabled: false }),
    new UndiciInstrumentation({ enabled: false }),
  ]);
  return measureCases(server, cases, calls, (operation, baseUrl) => [
    sdkContender({ ...current, name: 'no subscriber' }, operation, baseUrl),
    sdkContender({ ...current, name: 'bare subscriber' }, operation, baseUrl, bare),
    sdkContender({ ...current, name: 'OpenTelemetry' }, operation, baseUrl, sdkAlone),
    sdkContender({ ...current, name: 'OTel + undici' }, operation, baseUrl, docsSetup),
    ...others.map((build) => sdkContender(build, operation, baseUrl)),
    rawContender(operation, baseUrl),
  ]);
}
