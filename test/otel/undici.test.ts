/**
 * PetStoreInstrumentation beside undici's, as the docs set them up, over real HTTP to the fake's
 * server: undici's spans nest under the attempts', the one trace reaches the service on every
 * attempt, and each attempt's HTTP duration is recorded once, by undici's instrumentation.
 */
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { createFakePetStore, type FakePetStore, type RunningFakeServer } from '../../src/testing/index.js';
import { startTelemetry, type Telemetry } from './support/telemetry.js';

const API_KEY = 'sk-test-otel-undici-0123456789';
let store: FakePetStore;
let server: RunningFakeServer;
let telemetry: Telemetry;

beforeAll(async () => {
  store = createFakePetStore({ apiKeys: { [API_KEY]: 'pro' }, requestIdSeed: 3 });
  server = await store.listen();
});
afterAll(() => server.close());
beforeEach(() => {
  store.reset();
  telemetry = startTelemetry({ others: [new UndiciInstrumentation()] });
});
afterEach(() => telemetry.stop());

it('records each attempt’s http.client.request.duration once, under undici’s scope, and the call’s under the SDK’s', async () => {
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: server.url, logLevel: 'off' });
  store.injectFault({ status: 500 });

  await client.listPets({ limit: 2 });

  expect(store.requests.map((request) => request.status)).toEqual([500, 200]);
  const attempts = await telemetry.histogram('http.client.request.duration');
  expect(
    attempts.map(({ scope, count, attributes }) => [scope, count, attributes['http.response.status_code']]),
  ).toEqual([
    ['@opentelemetry/instrumentation-undici', 1, 500],
    ['@opentelemetry/instrumentation-undici', 1, 200],
  ]);
  const calls = await telemetry.histogram('animal_store.client.operation.duration');
  expect(calls).toEqual([
    expect.objectContaining({
      scope: 'animal-store-sdk',
      count: 1,
      attributes: expect.objectContaining({ 'animal_store.operation': 'listPets' }),
    }),
  ]);
});

it('nests undici’s span under each attempt’s, and sends the call’s trace to the service on every attempt', async () => {
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: server.url, logLevel: 'off' });
  store.injectFault({ status: 500 });

  await client.listPets();

  const [call, ...others] = telemetry.spans();
  expect(others).toEqual([]);
  expect(call).toMatchObject({
    name: 'listPets',
    children: [
      { name: 'GET /pets', kind: 'CLIENT', children: [{ name: 'GET', kind: 'CLIENT' }] },
      { name: 'GET /pets', kind: 'CLIENT', children: [{ name: 'GET', kind: 'CLIENT' }] },
    ],
  });
  const traces = store.requests.map((request) => request.headers.traceparent?.split('-')[1]);
  expect(traces).toHaveLength(2);
  expect(new Set(traces).size).toBe(1);
  expect(traces[0]).toMatch(/^[0-9a-f]{32}$/);
});
