/**
 * What the diagnostics channels cost a call: with no subscriber, with a bare subscriber on every
 * channel, and with the OpenTelemetry instrumentation recording every span and metric, beside the
 * builds passed with `--variant` (an earlier commit, before the channels) and raw fetch.
 *
 * @module
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { DIAGNOSTICS_CHANNELS } from '../../src/index.js';
import { AnimalStoreInstrumentation } from '../../src/otel/index.js';
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
 * OpenTelemetry as an application runs it: AsyncLocalStorage context, every span sampled and batched
 * to an exporter, the histograms recorded. Enabled for the contender's rounds only.
 */
function openTelemetry(): NonNullable<Contender['around']> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(
    new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(DISCARD)] }),
  );
  const instrumentation = new AnimalStoreInstrumentation({ enabled: false });
  registerInstrumentations({
    instrumentations: [instrumentation],
    meterProvider: new MeterProvider({ readers: [new NeverCollected()] }),
  });
  instrumentation.disable();
  return { before: () => instrumentation.enable(), after: () => instrumentation.disable() };
}

/** The contenders of each case: the SDK three ways, the other builds, raw fetch. */
export function measureTracingOverhead(
  server: LoopbackServer,
  builds: readonly SdkBuild[],
  cases: readonly OverheadCase[],
  calls: number,
): Promise<OverheadResult[]> {
  const [current, ...others] = builds;
  if (current === undefined) throw new Error('No SDK build to measure');
  const bare = bareSubscriber();
  const otel = openTelemetry();
  return measureCases(server, cases, calls, (operation, baseUrl) => [
    sdkContender({ ...current, name: 'no subscriber' }, operation, baseUrl),
    sdkContender({ ...current, name: 'bare subscriber' }, operation, baseUrl, bare),
    sdkContender({ ...current, name: 'OpenTelemetry' }, operation, baseUrl, otel),
    ...others.map((build) => sdkContender(build, operation, baseUrl)),
    rawContender(operation, baseUrl),
  ]);
}
