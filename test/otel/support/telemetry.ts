/**
 * OpenTelemetry's SDK as an application sets it up, recording in memory: the spans of each test, its
 * metrics on demand, and a span tree to compare against.
 */
import { context, type HrTime, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { type Instrumentation, registerInstrumentations } from '@opentelemetry/instrumentation';
import { type DataPoint, type Histogram, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { PetStoreInstrumentation, type PetStoreInstrumentationConfig } from '../../../src/otel/index.js';

/** A reader collected only when a test asks. */
class OnDemandReader extends MetricReader {
  protected override async onShutdown(): Promise<void> {}
  protected override async onForceFlush(): Promise<void> {}
}

/** A span as a test compares it: its name, kind, status, attributes, events and children. */
export interface SpanNode {
  readonly name: string;
  readonly kind: 'INTERNAL' | 'SERVER' | 'CLIENT' | 'PRODUCER' | 'CONSUMER';
  readonly status: 'UNSET' | 'OK' | 'ERROR';
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> }[];
  readonly children: SpanNode[];
}

const KINDS = ['INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'] as const;
const STATUSES = ['UNSET', 'OK', 'ERROR'] as const;

export interface Telemetry {
  readonly instrumentation: PetStoreInstrumentation;
  readonly provider: BasicTracerProvider;
  /** The finished spans as trees, roots in the order they ended. */
  spans(): SpanNode[];
  /** The data points of one histogram so far, by their attributes, with the scope that recorded each. */
  histogram(name: string): Promise<HistogramPoint[]>;
  /** The values of one gauge or counter so far, by their attributes. */
  values(name: string): Promise<{ attributes: Record<string, unknown>; value: number }[]>;
  reset(): void;
  stop(): Promise<void>;
}

/** One data point of a histogram. */
export interface HistogramPoint {
  readonly scope: string;
  readonly attributes: Record<string, unknown>;
  readonly count: number;
  readonly sum: number;
}

/** What a test sets up beside the SDK's instrumentation. */
export interface TelemetryOptions {
  readonly config?: PetStoreInstrumentationConfig;
  /** Other instrumentations registered with it (undici's). */
  readonly others?: readonly Instrumentation[];
}

/**
 * Registers the instrumentation with in-memory tracing and metrics, AsyncLocalStorage context and
 * W3C trace context sent with requests.
 */
export function startTelemetry({ config = {}, others = [] }: TelemetryOptions = {}): Telemetry {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const instrumentation = new PetStoreInstrumentation(config);
  const unregister = registerInstrumentations({
    instrumentations: [instrumentation, ...others],
    tracerProvider: provider,
    meterProvider,
  });
  return {
    instrumentation,
    provider,
    spans: () => trees(exporter.getFinishedSpans()),
    histogram: async (name) => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap(({ scope, metrics }) =>
        metrics
          .filter((metric) => metric.descriptor.name === name)
          .flatMap((metric) =>
            (metric.dataPoints as DataPoint<Histogram>[]).map((point) => ({
              scope: scope.name,
              attributes: { ...point.attributes },
              count: point.value.count,
              sum: point.value.sum ?? 0,
            })),
          ),
      );
    },
    values: async (name) => {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.flatMap(({ metrics }) =>
        metrics
          .filter((metric) => metric.descriptor.name === name)
          .flatMap((metric) =>
            (metric.dataPoints as DataPoint<number>[]).map((point) => ({
              attributes: { ...point.attributes },
              value: point.value,
            })),
          ),
      );
    },
    reset: () => exporter.reset(),
    stop: async () => {
      unregister();
      context.disable();
      propagation.disable();
      await provider.shutdown();
      await meterProvider.shutdown();
    },
  };
}

function trees(spans: readonly ReadableSpan[]): SpanNode[] {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of [...spans].sort((a, b) => compare(a.startTime, b.startTime))) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const node = (span: ReadableSpan): SpanNode => ({
    name: span.name,
    kind: KINDS[span.kind] ?? 'INTERNAL',
    status: STATUSES[span.status.code] ?? 'UNSET',
    attributes: { ...span.attributes },
    events: span.events.map((event) => ({ name: event.name, attributes: { ...event.attributes } })),
    children: (byParent.get(span.spanContext().spanId) ?? []).map(node),
  });
  return (byParent.get(undefined) ?? []).map(node);
}

function compare(a: HrTime, b: HrTime): number {
  return a[0] - b[0] || a[1] - b[1];
}
