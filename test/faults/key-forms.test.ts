/**
 * The key in every form it can take (percent-encoded, form-encoded, JSON-escaped, a property or
 * header name), wherever it comes from (echoed by the service, or put by the caller in a query or
 * a path): never in an error, a log line, a channel message or a span. And keys that are also words
 * of the SDK's own lines change none of them.
 */
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { record } from '../channels/support/recorder.js';
import { BASE_URL } from '../client/setup.js';
import { type SpanNode, startTelemetry, type Telemetry } from '../otel/support/telemetry.js';
import { settle, startFakeClock } from '../support/fake-clock.js';
import { jsonEscaped, keyForms, unicodeEscaped } from '../support/key-forms.js';
import { consoleLines, loggedLines, renderings, watchConsole, watchedLogger } from './support/leaks.js';

let telemetry: Telemetry;
beforeEach(() => {
  startFakeClock();
  watchConsole();
  telemetry = startTelemetry();
});
afterEach(async () => {
  await telemetry.stop();
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function spanTexts(nodes: readonly SpanNode[]): string[] {
  return nodes.flatMap((node) => [
    node.name,
    JSON.stringify(node.attributes),
    JSON.stringify(node.events),
    ...spanTexts(node.children),
  ]);
}

/** A client of a fake store that takes `key`, logging every line at `debug`, its channels and spans watched. */
function observed(key: string) {
  const store = createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [key]: 'pro' }, requestIdSeed: 7 });
  const logger = watchedLogger();
  const channels = record();
  const client = new PetStoreClient({
    apiKey: key,
    baseUrl: BASE_URL,
    fetch: store.fetch,
    logger,
    logLevel: 'debug',
    maxRetries: 0,
  });
  /** Everything a user could read: the error, log and console lines, channel messages, spans. */
  const seen = (error: unknown) => {
    channels.stop();
    const fields =
      error instanceof Error
        ? [inspect({ ...error, cause: error.cause }, { depth: 10 }), inspect(error.cause, { depth: 10 })]
        : [];
    return [
      ...(error === undefined ? [] : [...renderings(error), ...fields]),
      ...loggedLines(logger),
      ...consoleLines(),
      inspect(
        channels.events.map((event) => event.snapshot),
        { depth: 10 },
      ),
      ...spanTexts(telemetry.spans()),
    ];
  };
  return { store, client, seen };
}

function expectNoForm(lines: string[], key: string): void {
  for (const line of lines) for (const form of keyForms(key)) expect(line).not.toContain(form);
}

describe('the key in any form is in no error, log line, channel message or span', () => {
  const KEY = 'sk+live/SECRET==';

  it('echoed percent-encoded, upper and lower hex, in an Error body and a header', async () => {
    const { store, client, seen } = observed(KEY);
    const lower = encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (percent) => percent.toLowerCase());
    store.injectFault({
      status: 400,
      body: { code: 'bad_key', message: `bad key ${encodeURIComponent(KEY)}`, status: 400 },
      headers: { 'x-echo': lower },
    });
    const { error } = await settle(client.listPets());
    expect(error).toMatchObject({ message: 'bad key [redacted]' });
    expect((error as { headers: Headers }).headers.get('x-echo')).toBe('[redacted]');
    expectNoForm(seen(error), KEY);
  });

  it('echoed JSON-escaped (\\u0073, \\/) in a body, and as a property name', async () => {
    const { store, client, seen } = observed(KEY);
    store.injectFault({
      status: 500,
      headers: { 'content-type': 'application/json' },
      body: `{"code":"oops","message":"${unicodeEscaped(KEY)} ${jsonEscaped(KEY).replaceAll('/', '\\/')}","status":500,"${KEY}":1}`,
    });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(error).toMatchObject({ message: '[redacted] [redacted]', body: { '[redacted]': 1 } });
    expectNoForm(seen(error), KEY);
  });

  it('echoed in a header name, in any case', async () => {
    const key = 'sk_live_HeaderName0123';
    const { store, client, seen } = observed(key);
    store.injectFault({ status: 503, headers: { [`x-seen-${key}`]: 'yes' } });
    const { error } = await settle(client.listPets());
    expect([...(error as { headers: Headers }).headers.keys()]).toContain('x-seen-redacted');
    expectNoForm([...seen(error), ...seen(error).map((line) => line.toLowerCase())], key.toLowerCase());
  });

  it('put by the caller in a request() query value', async () => {
    const { store, client, seen } = observed(KEY);
    store.injectFault({ status: 400 });
    const { error } = await settle(client.request({ method: 'GET', path: '/pets', query: { token: KEY } }));
    const lines = seen(error);
    expect(lines).toContainEqual(
      expect.stringMatching(/^animal-store-sdk: GET \/pets\?token=\[redacted\] -> 400 in/),
    );
    expect(lines).toContainEqual(
      expect.stringContaining('"url.full":"http://animal-store.test/v1/pets?token=[redacted]"'),
    );
    expectNoForm(lines, KEY);
  });

  it('put by the caller in a request() path segment: the span name, url.template and the channel path too', async () => {
    const key = 'sk_test_PATH+é';
    const { client, seen } = observed(key);
    const { error } = await settle(
      client.request({ method: 'GET', path: `/pets/${encodeURIComponent(key)}` }),
    );
    const lines = seen(error);
    expect(lines).toContain('GET /pets/[redacted]');
    expect(lines).toContainEqual(expect.stringContaining('"url.template":"/pets/[redacted]"'));
    expectNoForm(lines, key);
  });
});

describe('a key that is also a word of the SDK’s own lines', () => {
  /** What a user reads of a few calls: log lines, channel messages and spans, durations left out. */
  async function readings(key: string): Promise<string[]> {
    startFakeClock();
    const { client, seen } = observed(key);
    await settle(client.listPets({ limit: 5 }));
    await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    const lines = seen(undefined).map((line) => line.replace(/\d+ ms/g, 'N ms'));
    telemetry.reset();
    return lines;
  }

  const neutral = 'a-neutral-key-0123456789';
  it.each(['k', 'pets', 'v1', 'GET'])('%s changes nothing the SDK writes', async (key) => {
    const expected = await readings(neutral);
    expect(await readings(key)).toEqual(expected);
    expect(expected.join('\n')).toContain('animal-store-sdk: GET /pets?limit=5 -> 200');
  });
});
