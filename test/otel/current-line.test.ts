/**
 * OpenTelemetry's current line (api 1.10, the 3.x SDK, `NodeSDK`) as a user sets it up from
 * docs/observability.md: the docs' install command beside the packed package, the docs'
 * `instrumentation.ts` type-checked (with the Next.js `register()` that loads it) and loaded with
 * `node --import`, one call retried after a 500 and a 429 against the fake's HTTP server, and the
 * spans and metrics as an OTLP receiver gets them.
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_NODE, REPO_ROOT, TSC } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { installedProject } from '../support/installed-project.js';
import { block, installedPackages, tsconfig } from './support/docs-setup.js';
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from './support/otlp-receiver.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/retried-call.mjs', import.meta.url));
const INTERNAL = 1;
const CLIENT = 3;

interface Report {
  readonly pets: number;
  readonly requests: { status: number; requestId: string; traceparent: string | undefined }[];
}

let directory: string;
let receiver: OtlpReceiver;
let report: Report;

beforeAll(async () => {
  const markdown = await readFile(join(REPO_ROOT, 'docs/observability.md'), 'utf8');
  const setup = block(markdown, 'ts instrumentation.ts');
  ({ directory } = await installedProject({
    name: 'animal-store-otel-current-line',
    packages: installedPackages(markdown, '@opentelemetry/sdk-node@'),
    refresh: async (project) => {
      await mkdir(join(project, 'next'), { recursive: true });
      await writeFile(join(project, 'instrumentation.ts'), setup);
      await writeFile(join(project, 'next/instrumentation.node.ts'), setup);
      await writeFile(
        join(project, 'next/instrumentation.ts'),
        block(markdown, 'ts instrumentation.ts (Next.js)'),
      );
      await writeFile(join(project, 'tsconfig.json'), tsconfig(['instrumentation.ts', 'next/*.ts']));
      await copyFile(FIXTURE, join(project, 'retried-call.mjs'));
    },
  }));
  receiver = await startOtlpReceiver();
  const { stdout } = await run(PINNED_NODE, ['--import', './instrumentation.ts', 'retried-call.mjs'], {
    cwd: directory,
    node: PINNED_NODE,
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
    timeoutMs: 60_000,
  });
  report = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as Report;
}, 400_000);
afterAll(() => receiver?.close());

describe('OpenTelemetry api 1.10 with the 3.x SDK and NodeSDK 0.300', () => {
  it('installs as the docs say, and the docs’ instrumentation.ts and Next.js register() type-check', async () => {
    const manifest = JSON.parse(
      await readFile(join(directory, 'node_modules/@opentelemetry/api/package.json'), 'utf8'),
    ) as { version: string };
    expect(manifest.version).toMatch(/^1\.10\./);
    await run(TSC, ['-p', 'tsconfig.json'], { cwd: directory, node: PINNED_NODE });
  }, 100_000);

  it('installs each @opentelemetry package once, as the docs say', async () => {
    const { stdout } = await run('npm', ['ls', '--all', '--json'], { cwd: directory, node: PINNED_NODE });
    type Tree = { version?: string; dependencies?: Record<string, Tree> };
    const versions = new Map<string, Set<string>>();
    const walk = (dependencies: Record<string, Tree> = {}) => {
      for (const [name, tree] of Object.entries(dependencies)) {
        if (name.startsWith('@opentelemetry/') && tree.version !== undefined) {
          versions.set(name, (versions.get(name) ?? new Set()).add(tree.version));
        }
        walk(tree.dependencies);
      }
    };
    walk((JSON.parse(stdout) as Tree).dependencies);
    expect(versions.size).toBeGreaterThan(10);
    expect([...versions].filter(([, found]) => found.size > 1)).toEqual([]);
  }, 100_000);

  it('makes the call one trace: its span, an attempt’s under it for each request, undici’s under each attempt', () => {
    expect(report.pets).toBe(2);
    expect(report.requests.map((request) => request.status)).toEqual([500, 429, 200]);
    const ours = receiver.spans.filter((span) => span.scope === 'animal-store-sdk');
    const call = ours.find((span) => span.name === 'listPets') as ReceivedSpan;
    expect(call).toMatchObject({
      kind: INTERNAL,
      parentSpanId: undefined,
      attributes: {
        'animal_store.operation': 'listPets',
        'animal_store.attempts': 3,
        'http.response.status_code': 200,
        'animal_store.request_id': report.requests[2]?.requestId,
      },
    });
    expect(call.events.map(({ name, attributes }) => [name, attributes['animal_store.wait.reason']])).toEqual(
      [
        ['animal_store.wait', 'backoff'],
        ['animal_store.wait', 'retry-after'],
      ],
    );
    expect(call.events[1]?.attributes['animal_store.wait.ms']).toBe(1_000);

    const attempts = ours.filter((span) => span.name === 'GET /pets');
    expect(
      attempts.map((span) => [
        span.kind,
        span.parentSpanId === call.spanId,
        span.attributes['http.response.status_code'],
        span.attributes['http.request.resend_count'],
      ]),
    ).toEqual([
      [CLIENT, true, 500, undefined],
      [CLIENT, true, 429, 1],
      [CLIENT, true, 200, 2],
    ]);

    const undici = receiver.spans.filter((span) => span.scope === '@opentelemetry/instrumentation-undici');
    expect(
      undici.map((span) => attempts.findIndex((attempt) => attempt.spanId === span.parentSpanId)),
    ).toEqual([0, 1, 2]);
    expect(new Set(receiver.spans.map((span) => span.traceId))).toEqual(new Set([call.traceId]));
    // The service saw the trace on every attempt, each sent by undici's span of that attempt.
    expect(report.requests.map((request) => request.traceparent?.split('-').slice(1, 3))).toEqual(
      undici.map((span) => [call.traceId, span.spanId]),
    );
  });

  it('records the call’s duration under the SDK’s name, and each attempt’s HTTP duration once, by undici', () => {
    const named = (name: string) => receiver.histograms.filter((point) => point.name === name);
    const calls = named('animal_store.client.operation.duration');
    expect(calls).toEqual([
      {
        scope: 'animal-store-sdk',
        name: 'animal_store.client.operation.duration',
        attributes: expect.objectContaining({
          'animal_store.operation': 'listPets',
          'http.response.status_code': 200,
        }),
        count: 1,
        sum: expect.any(Number),
      },
    ]);
    // The Retry-After second is in it.
    expect(calls[0]?.sum).toBeGreaterThanOrEqual(1);
    const http = named('http.client.request.duration');
    expect(new Set(http.map((point) => point.scope))).toEqual(
      new Set(['@opentelemetry/instrumentation-undici']),
    );
    expect(http.reduce((sum, point) => sum + point.count, 0)).toBe(3);
    expect(
      named('animal_store.wait.duration').map((point) => [
        point.attributes['animal_store.wait.reason'],
        point.count,
      ]),
    ).toEqual([
      ['backoff', 1],
      ['retry-after', 1],
    ]);
  });
});
