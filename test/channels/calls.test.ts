/**
 * What a subscriber to the SDK's diagnostics channels hears: each call, each attempt, each wait and
 * each kind of failure, with the contexts the public types describe.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { tracingChannel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import type { RateLimitWait } from '../../src/core/types.js';
import { DIAGNOSTICS_CHANNELS, type OperationContext } from '../../src/diagnostics/index.js';
import {
  APIConnectionError,
  InternalServerError,
  NotFoundError,
  RequestValidationError,
} from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from '../client/setup.js';
import { settle } from '../support/fake-clock.js';
import { recordEachTest } from './support/recorder.js';

const recording = recordEachTest();

/** `channel:event` of every event, in the order published. */
const sequence = () => recording.current.events.map(({ channel, event }) => `${channel}:${event}`);

/** A successful attempt's events inside a call. */
const ATTEMPT = ['attempt:start', 'attempt:end', 'attempt:asyncStart', 'attempt:asyncEnd'];

describe('a call that succeeds', () => {
  it('is one operation around one attempt, with the status and request id the caller sees', async () => {
    const { client, store } = setup({}, { requestIdSeed: 17 });

    const { requestId } = await client.listPets({ limit: 5 }).withResponse();

    const [sent] = store.requests;
    expect(requestId).toBe(sent?.requestId);
    expect(requestId).toBe('req_00000011_000001');
    expect(sequence()).toEqual([
      'operation:start',
      'operation:end',
      ...ATTEMPT,
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    const call = { operation: 'listPets', method: 'GET', path: '/pets', baseUrl: `${BASE_URL}/` };
    expect(recording.current.of('operation', 'start')).toEqual([{ ...call, attempts: 0 }]);
    expect(recording.current.of('operation', 'asyncEnd')).toEqual([
      { ...call, attempts: 1, status: 200, requestId, result: undefined },
    ]);
    const [started] = recording.current.of('attempt', 'start');
    expect(started).toEqual({
      operation: 'listPets',
      call: recording.current.events[0]?.message,
      resendCount: 0,
      method: 'GET',
      url: `${BASE_URL}/pets?limit=5`,
    });
    expect(recording.current.of('attempt', 'asyncEnd')[0]).toMatchObject({
      status: 200,
      requestId,
      rateLimit: { limit: 300, remaining: 299, reset: expect.any(Date) },
    });
  });

  it('names the operation and the path template, never the record', async () => {
    const { client } = setup({ deprecationWarnings: false });
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.getPet(1);

    expect(
      recording.current
        .of('operation', 'start')
        .map(({ operation, method, path }) => [operation, method, path]),
    ).toEqual([
      ['createPet', 'POST', '/pets'],
      ['getPet', 'GET', '/pets/{petId}'],
    ]);
    expect(recording.current.of('attempt', 'start').map(({ url }) => url)).toEqual([
      `${BASE_URL}/pets`,
      `${BASE_URL}/pets/1`,
    ]);
  });

  it('for request(), names the operation `request` and the path with its ids folded', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 200, body: [] });
    await client.request({ method: 'GET', path: '/store/orders/7', query: { limit: 2 } });

    expect(recording.current.of('operation', 'asyncEnd')).toEqual([
      expect.objectContaining({
        operation: 'request',
        method: 'GET',
        path: '/store/orders/{id}',
        status: 200,
      }),
    ]);
    expect(recording.current.of('attempt', 'start')[0]).toMatchObject({
      operation: 'request',
      url: `${BASE_URL}/store/orders/7?limit=2`,
    });
  });
});

describe('a call that waits and retries', () => {
  it('after a 429 with Retry-After: two attempts, and the wait the service asked for between them', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 429, headers: { 'Retry-After': '4' } });

    const { error } = await settle(client.listPets(), 10);

    expect(error).toBeUndefined();
    expect(sequence()).toEqual([
      'operation:start',
      'operation:end',
      ...ATTEMPT,
      'wait:publish',
      ...ATTEMPT,
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    const call = recording.current.events[0]?.message;
    expect(recording.current.of('wait')).toEqual([
      { operation: 'listPets', call, reason: 'retry-after', ms: 4_000 },
    ]);
    expect(
      recording.current.of('attempt', 'asyncEnd').map(({ resendCount, status }) => [resendCount, status]),
    ).toEqual([
      [0, 429],
      [1, 200],
    ]);
    const ids = store.requests.map((request) => request.requestId);
    expect(recording.current.of('attempt', 'asyncEnd').map(({ requestId }) => requestId)).toEqual(ids);
    expect(recording.current.of('operation', 'asyncEnd')[0]).toMatchObject({
      attempts: 2,
      status: 200,
      requestId: ids[1],
    });
  });

  it('after a 503: the backoff taken, the same wait onWait hears', async () => {
    const waits: RateLimitWait[] = [];
    const { client, store } = setup({ onWait: (wait) => waits.push(wait) });
    store.injectFault({ status: 503 });

    await settle(client.listPets(), 10);

    expect(recording.current.of('wait')).toEqual([
      expect.objectContaining({ operation: 'listPets', reason: 'backoff', ms: waits[0]?.waitMs }),
    ]);
    expect(waits).toHaveLength(1);
    expect(recording.current.of('attempt', 'asyncEnd').map(({ status }) => status)).toEqual([503, 200]);
  });

  it('behind another call’s budget: each wait goes to the call that waits', async () => {
    const { client } = setup({}, { apiKeys: { [API_KEY]: { perMinute: 1, perDay: 100 } } });
    await client.listPets(); // learns the budget: none left this minute

    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }), 100);

    expect(error).toBeUndefined();
    const creating = recording.current.events.filter((event) => event.channel === 'operation')[4]?.message;
    expect((creating as OperationContext).operation).toBe('createPet');
    expect(recording.current.of('wait')).toEqual([
      { operation: 'createPet', call: creating, reason: 'budget', ms: expect.any(Number) },
    ]);
  });
});

describe('a call that fails', () => {
  it('on a lost connection: the attempt ends with the fetch’s error, and a read is retried', async () => {
    const { client, store } = setup();
    store.injectFault({ networkError: true });

    await settle(client.listPets(), 10);

    const [lost, retried] = recording.current.of('attempt', 'asyncEnd');
    expect(lost).toMatchObject({ resendCount: 0, error: expect.any(TypeError) });
    expect(lost).not.toHaveProperty('status');
    expect(retried).toMatchObject({ resendCount: 1, status: 200 });
    const [backoff, ...beyond] = recording.current.of('wait');
    expect(backoff).toMatchObject({ reason: 'backoff' });
    // The retry follows a request with no response: it may wait on for the next probe, reported once.
    expect(beyond).toEqual(beyond.length === 0 ? [] : [expect.objectContaining({ reason: 'probe' })]);
  });

  it('with the very error the caller gets, and the attempts it took', async () => {
    const { client, store } = setup();
    store.injectFault({ networkError: true });

    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }), 10);

    expect(error).toBeInstanceOf(APIConnectionError);
    expect(sequence().slice(-3)).toEqual(['operation:error', 'operation:asyncStart', 'operation:asyncEnd']);
    const [ended] = recording.current.of('operation', 'asyncEnd');
    expect(ended?.error).toBe(error);
    expect(ended).toMatchObject({ attempts: 1 });
    expect(ended).not.toHaveProperty('status');
  });

  it('with the service’s status and request id on an APIError', async () => {
    const { client, store } = setup({ deprecationWarnings: false });
    const { error } = await settle(client.getPet(404));

    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toBe(store.requests[0]?.requestId);
    expect(recording.current.of('operation', 'asyncEnd')[0]).toMatchObject({
      error,
      status: 404,
      requestId: (error as NotFoundError).requestId,
    });
  });

  it('refused before sending: an operation with no attempt, ending in the validation error', async () => {
    const { client, store } = setup();

    const { error } = await settle(client.listPets({ limit: 500 }));

    expect(error).toBeInstanceOf(RequestValidationError);
    expect(store.requests).toEqual([]);
    expect(sequence()).toEqual([
      'operation:start',
      'operation:end',
      'operation:error',
      'operation:asyncStart',
      'operation:asyncEnd',
    ]);
    expect(recording.current.of('operation', 'asyncEnd')[0]).toMatchObject({
      operation: 'listPets',
      attempts: 0,
      error,
    });
  });

  it('refused before sending, for request(): the method it was given and no path', async () => {
    const { client } = setup();

    const { error } = await settle(client.request({ method: 'GET', path: '../admin' }));

    expect(error).toBeInstanceOf(RequestValidationError);
    expect(recording.current.of('operation', 'asyncEnd')).toEqual([
      expect.objectContaining({ operation: 'request', method: 'GET', path: '', attempts: 0, error }),
    ]);
  });
});

describe('what subscribers are given', () => {
  it('never the API key, even when the service echoes it back as the request id', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 503, headers: { 'X-Request-Id': API_KEY, 'X-Echo': `Bearer ${API_KEY}` } });
    store.injectFault({ status: 500, headers: { 'X-Request-Id': API_KEY }, body: `key ${API_KEY}` });

    const { error } = await settle(client.listPets({}, { maxRetries: 1 }), 10);

    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).requestId).toBe('[redacted]');
    expect(recording.current.of('attempt', 'asyncEnd').map(({ requestId }) => requestId)).toEqual([
      '[redacted]',
      '[redacted]',
    ]);
    expect(recording.current.json()).toContain('[redacted]');
    expect(recording.current.json()).not.toContain(API_KEY);
  });

  it('a store bound at the start of a call, current in everything the call does and gone after it', async () => {
    const current = new AsyncLocalStorage<string>();
    const operation = tracingChannel<string, OperationContext>(DIAGNOSTICS_CHANNELS.operation);
    operation.start.bindStore(current, (call) => `span of ${call.operation}`);
    try {
      const seen: (string | undefined)[] = [];
      const { store } = setup();
      const { client } = setup({
        fetch: (input, init) => {
          seen.push(`fetch: ${current.getStore()}`);
          return store.fetch(input, init);
        },
        onWait: () => seen.push(`wait: ${current.getStore()}`),
      });
      store.injectFault({ status: 503 });

      await settle(client.listPets(), 10);
      seen.push(`after: ${current.getStore()}`);

      expect(seen).toEqual([
        'fetch: span of listPets',
        'wait: span of listPets',
        'fetch: span of listPets',
        'after: undefined',
      ]);
    } finally {
      operation.start.unbindStore(current);
    }
  });
});
