/**
 * An OTLP/HTTP receiver for JSON, as a collector listens: it keeps the spans and metrics exporters
 * send, flattened for a test to read.
 *
 * @module
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

type AnyValue = {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
};
interface KeyValue {
  key: string;
  value: AnyValue;
}

/** A span as received. */
export interface ReceivedSpan {
  readonly scope: string;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string | undefined;
  readonly name: string;
  /** OTLP's numbering: 1 INTERNAL, 2 SERVER, 3 CLIENT. */
  readonly kind: number;
  readonly attributes: Record<string, unknown>;
  readonly events: { name: string; attributes: Record<string, unknown> }[];
}

/** One histogram data point as received. */
export interface ReceivedPoint {
  readonly scope: string;
  readonly name: string;
  readonly attributes: Record<string, unknown>;
  readonly count: number;
  readonly sum: number;
}

export interface OtlpReceiver {
  /** What `OTEL_EXPORTER_OTLP_ENDPOINT` is set to. */
  readonly endpoint: string;
  readonly spans: ReceivedSpan[];
  readonly histograms: ReceivedPoint[];
  close(): Promise<void>;
}

function plain(value: AnyValue): unknown {
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.doubleValue ?? value.boolValue;
}

function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, plain(value)]));
}

interface TracesBody {
  resourceSpans?: {
    scopeSpans?: {
      scope?: { name?: string };
      spans?: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        attributes?: KeyValue[];
        events?: { name: string; attributes?: KeyValue[] }[];
      }[];
    }[];
  }[];
}

interface MetricsBody {
  resourceMetrics?: {
    scopeMetrics?: {
      scope?: { name?: string };
      metrics?: {
        name: string;
        histogram?: { dataPoints?: { attributes?: KeyValue[]; count: string | number; sum?: number }[] };
      }[];
    }[];
  }[];
}

/** Starts a receiver on a loopback port. */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const histograms: ReceivedPoint[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      if (request.url === '/v1/traces') {
        for (const resource of (JSON.parse(text) as TracesBody).resourceSpans ?? [])
          for (const { scope, spans: list } of resource.scopeSpans ?? [])
            for (const span of list ?? [])
              spans.push({
                scope: scope?.name ?? '',
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || undefined,
                name: span.name,
                kind: span.kind,
                attributes: attributesOf(span.attributes),
                events: (span.events ?? []).map((event) => ({
                  name: event.name,
                  attributes: attributesOf(event.attributes),
                })),
              });
      } else if (request.url === '/v1/metrics') {
        for (const resource of (JSON.parse(text) as MetricsBody).resourceMetrics ?? [])
          for (const { scope, metrics } of resource.scopeMetrics ?? [])
            for (const metric of metrics ?? [])
              for (const point of metric.histogram?.dataPoints ?? [])
                histograms.push({
                  scope: scope?.name ?? '',
                  name: metric.name,
                  attributes: attributesOf(point.attributes),
                  count: Number(point.count),
                  sum: point.sum ?? 0,
                });
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    histograms,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
