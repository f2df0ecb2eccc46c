/**
 * The queue as a subscriber and OpenTelemetry see it: its length as it changes and each refusal on
 * the queue channel, a gauge of the calls waiting and a counter of refusals, one debug line each.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DIAGNOSTICS_CHANNELS, type QueueMessage } from '../../src/diagnostics/index.js';
import { API_KEY, setup } from '../client/setup.js';
import { startTelemetry, type Telemetry } from '../otel/support/telemetry.js';
import { startFakeClock } from '../support/fake-clock.js';

const PLAN = { perMinute: 2, perDay: 1_000, window: 10_000 };

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

/** A client with its window spent and three calls made behind it: one waits, two are refused. */
async function overloaded() {
  const debug = vi.fn<(message: string) => void>();
  const { client } = setup(
    { logLevel: 'debug', logger: { warn: vi.fn(), debug }, maxQueued: 1 },
    { apiKeys: { [API_KEY]: PLAN } },
  );
  await client.listPets();
  await client.listPets();
  const calls = [
    client.listPets(),
    client.listPets(),
    client.createPet({ name: 'Rex', categoryId: 1 }, { callTimeout: 1_000 }),
  ].map((call) => call.catch(() => undefined));
  await vi.advanceTimersByTimeAsync(0);
  return { client, debug, calls };
}

describe('the queue channel', () => {
  const messages: QueueMessage[] = [];
  const listener = (message: unknown) => messages.push(message as QueueMessage);
  beforeEach(() => {
    messages.length = 0;
    subscribe(DIAGNOSTICS_CHANNELS.queue, listener);
  });
  afterEach(() => {
    unsubscribe(DIAGNOSTICS_CHANNELS.queue, listener);
  });

  it('tells of every change in the calls waiting and of each refusal, with its code', async () => {
    const { client, calls } = await overloaded();
    const baseUrl = client.baseUrl;
    await vi.advanceTimersByTimeAsync(11_000);
    await Promise.all(calls);
    expect(messages.filter((message) => message.event === 'refusal')).toEqual([
      {
        event: 'refusal',
        baseUrl,
        waiting: 1,
        inFlight: 0,
        operation: 'listPets',
        code: 'client_queue_full',
      },
      {
        event: 'refusal',
        baseUrl,
        waiting: 1,
        inFlight: 0,
        operation: 'createPet',
        code: 'client_queue_full',
      },
    ]);
    const waiting = messages
      .filter((message) => message.event === 'change')
      .map((message) => message.waiting);
    // The first two calls: in and out at once; then the third waits for the reset.
    expect(waiting.slice(-2)).toEqual([1, 0]);
    expect(Math.max(...waiting)).toBe(1);
  });
});

describe('refusals in the log', () => {
  it('are one debug line each, naming the operation and the code', async () => {
    const { debug, calls } = await overloaded();
    await vi.advanceTimersByTimeAsync(11_000);
    await Promise.all(calls);
    const lines = debug.mock.calls.map(([line]) => line).filter((line) => line.includes('refused'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^animal-store-sdk: listPets refused \(client_queue_full\): 1 calls already wait/,
      ),
      expect.stringMatching(/^animal-store-sdk: createPet refused \(client_queue_full\)/),
    ]);
    expect(debug.mock.calls.filter(([line]) => line.includes('failed after'))).toHaveLength(0);
  });
});

describe('OpenTelemetry', () => {
  let telemetry: Telemetry;
  beforeEach(() => {
    telemetry = startTelemetry();
  });
  afterEach(() => telemetry.stop());

  it('records the calls waiting as a gauge and each refusal in a counter, by code and operation', async () => {
    const { client, calls } = await overloaded();
    const server = { 'server.address': new URL(client.baseUrl).hostname };
    expect(await telemetry.values('animal_store.client.queue.waiting')).toEqual([
      { attributes: server, value: 1 },
    ]);
    expect(await telemetry.values('animal_store.client.refusals')).toEqual([
      {
        attributes: {
          ...server,
          'animal_store.operation': 'listPets',
          'animal_store.refusal.code': 'client_queue_full',
        },
        value: 1,
      },
      {
        attributes: {
          ...server,
          'animal_store.operation': 'createPet',
          'animal_store.refusal.code': 'client_queue_full',
        },
        value: 1,
      },
    ]);
    await vi.advanceTimersByTimeAsync(11_000);
    await Promise.all(calls);
    expect(await telemetry.values('animal_store.client.queue.waiting')).toEqual([
      { attributes: server, value: 0 },
    ]);
  });
});
