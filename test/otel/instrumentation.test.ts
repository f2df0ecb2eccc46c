/**
 * PetStoreInstrumentation with OpenTelemetry's own SDK: the spans of each kind of call, their
 * parents, attributes and events, and the metrics.
 */
import { SpanKind, trace } from '@opentelemetry/api';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createInProcessRateLimitStore, type RateLimitStore, withFallback } from '../../src/store/index.js';
import { API_KEY, BASE_URL, setup } from '../client/setup.js';
import { START, settle, useFakeClock } from '../support/fake-clock.js';
import { type SpanNode, startTelemetry, type Telemetry } from './support/telemetry.js';

let telemetry: Telemetry;
beforeEach(() => {
  useFakeClock();
  vi.setSystemTime(START);
  telemetry = startTelemetry();
});
afterEach(async () => {
  await telemetry.stop();
  vi.useRealTimers();
});

/** Runs `work` under an application span named `app`, as a traced request handler would. */
function underAppSpan<T>(work: () => Promise<T>): Promise<T> {
  const tracer = telemetry.provider.getTracer('app');
  return tracer.startActiveSpan('app', { kind: SpanKind.SERVER }, async (span) => {
    try {
      return await work();
    } finally {
      span.end();
    }
  });
}

/** The one root span of the test. */
function root(): SpanNode {
  const roots = telemetry.spans();
  expect(roots).toHaveLength(1);
  return roots[0] as SpanNode;
}

describe('a call', () => {
  it('is an INTERNAL span under the caller’s, with a CLIENT span per attempt and its wait as an event', async () => {
    const { client, store } = setup({}, { requestIdSeed: 5 });
    store.injectFault({ status: 503 });

    const { error } = await settle(
      underAppSpan(() => client.listPets({ limit: 5 })),
      10,
    );

    expect(error).toBeUndefined();
    const [first, second] = store.requests.map((request) => request.requestId);
    const attempt = {
      'http.request.method': 'GET',
      'url.full': `${BASE_URL}/pets?limit=5`,
      'url.template': '/pets',
      'server.address': 'animal-store.test',
      'server.port': 80,
      'animal_store.rate_limit.limit': 300,
      'animal_store.rate_limit.reset': expect.any(Number),
    };
    const app = root();
    expect(app).toMatchObject({ name: 'app', kind: 'SERVER' });
    expect(app.children).toEqual([
      {
        name: 'listPets',
        kind: 'INTERNAL',
        status: 'UNSET',
        attributes: {
          'animal_store.operation': 'listPets',
          'url.template': '/pets',
          'animal_store.attempts': 2,
          'http.response.status_code': 200,
          'animal_store.request_id': second,
        },
        events: [
          {
            name: 'animal_store.wait',
            attributes: { 'animal_store.wait.reason': 'backoff', 'animal_store.wait.ms': expect.any(Number) },
          },
        ],
        children: [
          {
            name: 'GET /pets',
            kind: 'CLIENT',
            status: 'ERROR',
            attributes: {
              ...attempt,
              'http.response.status_code': 503,
              'error.type': '503',
              'animal_store.request_id': first,
              'animal_store.rate_limit.remaining': 300,
            },
            events: [],
            children: [],
          },
          {
            name: 'GET /pets',
            kind: 'CLIENT',
            status: 'UNSET',
            attributes: {
              ...attempt,
              'http.request.resend_count': 1,
              'http.response.status_code': 200,
              'animal_store.request_id': second,
              'animal_store.rate_limit.remaining': 299,
            },
            events: [],
            children: [],
          },
        ],
      },
    ]);
  });

  it('waits as the service asked after a 429: the event says retry-after and the milliseconds', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '4' } });

    await settle(client.createPet({ name: 'Rex', categoryId: 1 }), 10);

    const call = root();
    expect(call.name).toBe('createPet');
    expect(call.events).toEqual([
      {
        name: 'animal_store.wait',
        attributes: { 'animal_store.wait.reason': 'retry-after', 'animal_store.wait.ms': 4_000 },
      },
    ]);
    expect(call.children.map((span) => [span.name, span.attributes['http.response.status_code']])).toEqual([
      ['POST /pets', 429],
      ['POST /pets', 201],
    ]);
  });

  it('names attempts by the path template, never by the record', async () => {
    const { client } = setup({ deprecationWarnings: false });
    await settle(client.getPet(7));

    expect(root()).toMatchObject({
      name: 'getPet',
      attributes: { 'url.template': '/pets/{petId}' },
      children: [{ name: 'GET /pets/{petId}', attributes: { 'url.full': `${BASE_URL}/pets/7` } }],
    });
  });
});

describe('a call that fails', () => {
  it('on a lost connection: the attempt’s error.type is what fetch threw, the call’s the SDK’s error class', async () => {
    const { client, store } = setup();
    store.injectFault({ networkError: true });

    await settle(client.createPet({ name: 'Rex', categoryId: 1 }), 10);

    const call = root();
    expect(call).toMatchObject({
      name: 'createPet',
      status: 'ERROR',
      attributes: { 'error.type': 'APIConnectionError', 'animal_store.attempts': 1 },
      events: [{ name: 'exception', attributes: { 'exception.type': 'APIConnectionError' } }],
    });
    expect(call.attributes).not.toHaveProperty('http.response.status_code');
    expect(call.children).toEqual([
      expect.objectContaining({
        name: 'POST /pets',
        status: 'ERROR',
        attributes: expect.objectContaining({ 'error.type': 'TypeError' }),
      }),
    ]);
  });

  it('with an error status: the class on the call, the status on the attempt', async () => {
    const { client } = setup({ deprecationWarnings: false });
    await settle(client.getPet(404));

    expect(root()).toMatchObject({
      status: 'ERROR',
      attributes: { 'error.type': 'NotFoundError', 'http.response.status_code': 404 },
      events: [{ name: 'exception', attributes: { 'exception.type': 'NotFoundError' } }],
      children: [{ status: 'ERROR', attributes: { 'error.type': '404', 'http.response.status_code': 404 } }],
    });
  });

  it('refused before sending: the call’s span alone, failed with the validation error', async () => {
    const { client } = setup();
    await settle(client.listPets({ limit: 0 }));

    expect(root()).toMatchObject({
      name: 'listPets',
      status: 'ERROR',
      attributes: { 'error.type': 'RequestValidationError', 'animal_store.attempts': 0 },
      children: [],
    });
  });
});

describe('the instrumentation', () => {
  it('records each call’s duration under its own name and each wait by reason, and no HTTP metric', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
    await settle(client.listPets(), 10);
    await settle(client.getPet(404));

    const call = {
      scope: 'animal-store-sdk',
      count: 1,
      sum: expect.any(Number),
    };
    const server = { 'server.address': 'animal-store.test', 'server.port': 80 };
    expect(await telemetry.histogram('animal_store.client.operation.duration')).toEqual([
      {
        ...call,
        attributes: {
          'animal_store.operation': 'listPets',
          ...server,
          'url.template': '/pets',
          'http.response.status_code': 200,
        },
      },
      {
        ...call,
        attributes: {
          'animal_store.operation': 'getPet',
          ...server,
          'url.template': '/pets/{petId}',
          'http.response.status_code': 404,
          'error.type': 'NotFoundError',
        },
      },
    ]);
    expect(await telemetry.histogram('animal_store.wait.duration')).toEqual([
      {
        scope: 'animal-store-sdk',
        attributes: { 'animal_store.operation': 'listPets', 'animal_store.wait.reason': 'retry-after' },
        count: 1,
        sum: 2,
      },
    ]);
    expect(await telemetry.histogram('http.client.request.duration')).toEqual([]);
  });

  it('records each attempt’s http.client.request.duration when asked, by the conventions’ attributes', async () => {
    await telemetry.stop();
    telemetry = startTelemetry({ config: { httpClientRequestDuration: true } });
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
    await settle(client.listPets(), 10);

    const attempt = {
      'http.request.method': 'GET',
      'server.address': 'animal-store.test',
      'server.port': 80,
      'url.template': '/pets',
    };
    expect(await telemetry.histogram('http.client.request.duration')).toEqual([
      {
        scope: 'animal-store-sdk',
        attributes: { ...attempt, 'http.response.status_code': 429, 'error.type': '429' },
        count: 1,
        sum: expect.any(Number),
      },
      {
        scope: 'animal-store-sdk',
        attributes: { ...attempt, 'http.response.status_code': 200 },
        count: 1,
        sum: expect.any(Number),
      },
    ]);
  });

  it('marks the span of the call that finds a shared store away', async () => {
    const backend = createInProcessRateLimitStore();
    const away: RateLimitStore = {
      acquire: () => {
        throw new Error('connection refused');
      },
      release: (scope, lease, outcome) => backend.release(scope, lease, outcome),
    };
    const { client } = setup({ rateLimitStore: withFallback(away, { name: 'Postgres' }), logLevel: 'off' });

    await settle(client.listPets());

    expect(root().events).toEqual([
      {
        name: 'animal_store.store.fallback',
        attributes: {
          'animal_store.store.name': 'Postgres',
          'animal_store.store.share': 0.2, // 1 / (4 + 1): the store never said how many share the key
          'animal_store.store.reason': 'connection refused',
        },
      },
    ]);
  });

  it('leaves the caller’s active span as it was', async () => {
    const { client } = setup();
    const seen = await underAppSpan(async () => {
      const before = trace.getActiveSpan();
      await settle(client.listPets());
      return { before, after: trace.getActiveSpan() };
    });

    expect(seen.after).toBe(seen.before);
  });

  it('never puts the API key in a span, even when the service echoes it', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 500, headers: { 'X-Request-Id': API_KEY }, body: `bad key ${API_KEY}` });
    await settle(client.createPet({ name: 'Rex', categoryId: 1 }));

    const text = JSON.stringify(telemetry.spans());
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(API_KEY);
  });

  it('makes no span once disabled, and again once enabled', async () => {
    const { client } = setup();
    telemetry.instrumentation.disable();
    await settle(client.listPets());
    expect(telemetry.spans()).toEqual([]);

    telemetry.instrumentation.enable();
    await settle(client.listPets());
    expect(telemetry.spans().map((span) => span.name)).toEqual(['listPets']);
  });
});
