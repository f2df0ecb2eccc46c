/**
 * Each attempt on the client a security review made, tried again against the built package (dist/)
 * and the `animal-store-fake-server` command: the key in the forms it was once kept in, redirects to
 * another origin, headers fetch refuses, headers given as a `Headers`, and encoded `?` and `#` in a
 * `request()` path. The fake's side (its control API) has its own file beside this one.
 */
import { subscribe, tracingChannel, unsubscribe } from 'node:diagnostics_channel';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type * as Diagnostics from '../../src/diagnostics/index.js';
import type * as Sdk from '../../src/index.js';
import type * as Otel from '../../src/otel/index.js';
import { PROCESS_TEST_TIMEOUT_MS, run, waitForUrl } from '../support/cli-process.js';
import { jsonEscaped, keyForms, unicodeEscaped } from '../support/key-forms.js';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../support/package-build.js';

/** A key with the characters that percent-encoding, form encoding and JSON escape. */
const KEY = 'sk+live/SECRET==';

function expectNoForm(texts: readonly string[], key: string): void {
  for (const text of texts) for (const form of keyForms(key)) expect(text).not.toContain(form);
}

const built = (path: string) => import(pathToFileURL(join(PACKAGE_ROOT, 'dist', path)).href);

let sdk: typeof Sdk;
let channelNames: typeof Diagnostics.DIAGNOSTICS_CHANNELS;
let origin: string;
let baseUrl: string;
const stops: (() => unknown)[] = [];
const exporter = new InMemorySpanExporter();
let unregister: (() => void) | undefined;

beforeAll(async () => {
  await ensurePackageBuilt();
  sdk = (await built('index.js')) as typeof Sdk;
  ({ DIAGNOSTICS_CHANNELS: channelNames } = (await built('diagnostics/index.js')) as typeof Diagnostics);
  const { PetStoreInstrumentation } = (await built('otel/index.js')) as typeof Otel;
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  unregister = registerInstrumentations({
    instrumentations: [new PetStoreInstrumentation()],
    tracerProvider: provider,
  });
  const cli = run(['--port', '0', '--key', KEY, '--plan', 'enterprise'], {
    onTestFinished: (stop) => stops.push(stop as () => unknown),
  });
  baseUrl = await waitForUrl(cli);
  origin = new URL(baseUrl).origin;
  // Building dist/ first, when it is out of date, takes a while on a busy machine.
}, 180_000);
afterAll(() => {
  unregister?.();
  for (const stop of stops) stop();
});
beforeEach(async () => {
  exporter.reset();
  await fetch(`${origin}/__fake/reset`, { method: 'POST' });
});

const control = (path: string, body: unknown) =>
  fetch(`${origin}/__fake${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const requestsSeen = async () =>
  (await (await fetch(`${origin}/__fake/requests`)).json()) as {
    path: string;
    headers: Record<string, string>;
  }[];

/** A client of the command logging every line at `debug`, and what it, its channels and spans let a user read. */
function watchedClient(options: Partial<Sdk.ClientOptions> = {}) {
  const lines: string[] = [];
  const record = (line: string) => lines.push(line);
  const client = new sdk.PetStoreClient({
    apiKey: KEY,
    baseUrl,
    logLevel: 'debug',
    logger: { warn: record, info: record, debug: record, error: record },
    maxRetries: 0,
    ...options,
  });
  const published: unknown[] = [];
  const onMessage = (message: unknown) => published.push({ ...(message as object) });
  const channels = Object.values(channelNames);
  const traced = ['operation', 'attempt'].map((name) => tracingChannel(channelNames[name as 'operation']));
  const handlers = {
    start: onMessage,
    end: onMessage,
    asyncStart: onMessage,
    asyncEnd: onMessage,
    error: onMessage,
  };
  for (const channel of traced) channel.subscribe(handlers);
  for (const name of channels) subscribe(name, onMessage);
  const seen = (error?: unknown): string[] => {
    for (const channel of traced) channel.unsubscribe(handlers);
    for (const name of channels) unsubscribe(name, onMessage);
    const spans = exporter
      .getFinishedSpans()
      .map((span) => JSON.stringify({ name: span.name, attributes: span.attributes, events: span.events }));
    const rendered =
      error instanceof Error
        ? [error.message, String(error.stack), JSON.stringify(error), inspect(error, { depth: 10 })]
        : [];
    return [...rendered, ...lines, inspect(published, { depth: 10 }), ...spans];
  };
  return { client, seen };
}

describe('the key, in a form it was once kept in', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('a request() query value with + / =: not in the log, the attempt channel’s url or url.full', async () => {
    const { client, seen } = watchedClient();
    await client.request({ method: 'GET', path: '/pets', query: { token: KEY } });
    const texts = seen();
    expect(texts).toContainEqual(expect.stringMatching(/GET \/pets\?token=\[redacted\] -> 200/));
    expectNoForm(texts, KEY);
  });

  it('a request() path segment: not in the span name, url.template or the channel’s path', async () => {
    // A key the command does not take (a 401), whose characters a path segment may hold.
    const key = 'sk_test_PATH+SECRET';
    const { client, seen } = watchedClient({ apiKey: key });
    const error = await client
      .request({ method: 'GET', path: `/pets/${encodeURIComponent(key)}` })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(sdk.AuthenticationError);
    const texts = seen(error);
    expect(texts).toContainEqual(expect.stringContaining('"name":"GET /pets/[redacted]"'));
    expectNoForm(texts, key);
  });

  it('a request() path that is refused: not in the RequestValidationError’s issues', async () => {
    const { client, seen } = watchedClient();
    const error = await client
      .request({ method: 'GET', path: `/pets/${encodeURIComponent(KEY)}` })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(sdk.RequestValidationError);
    expect((error as Sdk.RequestValidationError).issues[0]).toMatchObject({ input: '/pets/[redacted]' });
    expectNoForm(seen(error), KEY);
  });

  it('echoed percent-encoded, JSON-escaped, as a property name and a header name: not in the error or the channel', async () => {
    await control('/faults', {
      status: 400,
      headers: { 'content-type': 'application/json', 'x-echo-sk-live-secret': encodeURIComponent(KEY) },
      body: `{"code":"bad","message":"${unicodeEscaped(KEY)} ${jsonEscaped(KEY).replaceAll('/', '\\/')}","status":400,"${KEY}":1}`,
    });
    const { client, seen } = watchedClient();
    const error = await client.listPets().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(sdk.BadRequestError);
    expect(error).toMatchObject({ message: '[redacted] [redacted]', body: { '[redacted]': 1 } });
    const texts = seen(error);
    expectNoForm(texts, KEY);
    const headerName = 'sk-live-secret';
    const header = new sdk.PetStoreClient({
      apiKey: headerName,
      baseUrl,
      fetch: async () => new Response('{}', { status: 500, headers: { [`x-${headerName}`]: 'y' } }),
      maxRetries: 0,
    });
    const echoed = await header.listPets().catch((caught: unknown) => caught);
    expect([...(echoed as Sdk.APIError).headers.keys()]).toContain('x-redacted');
  });
});

describe('redirects', () => {
  /** A loopback server that records what it hears, answering with `answer`. */
  async function server(answer: (request: IncomingMessage, response: ServerResponse) => void) {
    const heard: { url: string | undefined; headers: IncomingMessage['headers'] }[] = [];
    const http = createServer((request, response) => {
      heard.push({ url: request.url, headers: request.headers });
      request.resume().on('end', () => answer(request, response));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    stops.push(() => http.close());
    return { heard, origin: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };
  }

  it('to another origin carry no header and no body there: each is a RedirectError naming where it pointed', async () => {
    const evil = await server((_, response) => response.writeHead(200).end('[]'));
    const api = await server((request, response) => {
      const status = Number(request.url?.split('/')[2]);
      response.writeHead(status, { location: `${evil.origin}/steal?key=${encodeURIComponent(KEY)}` }).end();
    });
    const client = new sdk.PetStoreClient({
      apiKey: KEY,
      baseUrl: `${api.origin}/v1`,
      headers: { 'X-Api-Key': KEY },
      logLevel: 'off',
    });
    for (const status of [301, 302, 303, 307, 308]) {
      const error = await client
        .request({ method: 'POST', path: `/${status}`, body: { name: 'Rex' } })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(sdk.RedirectError);
      expect((error as Error).message).toContain(`to ${evil.origin}/steal?key=[redacted]`);
      expect((error as Error).message).toContain('nothing was sent there');
    }
    expect(evil.heard).toEqual([]);
    expect(api.heard).toHaveLength(5);
  });

  it('on the same origin outside /v1 is not followed either', async () => {
    const api = await server((request, response) => {
      if (request.url === '/outside/x') response.writeHead(200).end('[]');
      else response.writeHead(302, { location: '/outside/x' }).end();
    });
    const client = new sdk.PetStoreClient({ apiKey: KEY, baseUrl: `${api.origin}/v1`, logLevel: 'off' });
    await expect(client.listPets()).rejects.toBeInstanceOf(sdk.RedirectError);
    expect(api.heard.map(({ url }) => url)).toEqual(['/v1/pets']);
  });
});

describe('headers', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('with a control character are refused before anything is sent, never retried as a lost connection', async () => {
    expect(() => new sdk.PetStoreClient({ apiKey: 'sk\x01live', baseUrl })).toThrow(/control characters/);
    const { client } = watchedClient({ maxRetries: 3 });
    for (const value of ['a\x01b', 'a\x0bb']) {
      await expect(client.listPets({}, { headers: { 'X-Note': value } })).rejects.toBeInstanceOf(
        sdk.RequestValidationError,
      );
    }
    expect(await requestsSeen()).toEqual([]);
  });

  it('given as a Headers are sent, not dropped', async () => {
    const { client } = watchedClient({ headers: new Headers({ 'X-Tenant': 'acme' }) });
    await client.listPets({}, { headers: new Headers({ 'X-Trace': 't-1' }) });
    const [request] = await requestsSeen();
    expect(request?.headers).toMatchObject({ 'x-tenant': 'acme', 'x-trace': 't-1' });
  });
});

describe('a request() path with an encoded ? or #', { timeout: PROCESS_TEST_TIMEOUT_MS }, () => {
  it('is sent as written, under the base URL, as the README says', async () => {
    const { client } = watchedClient();
    for (const path of ['/pets/a%3fb', '/pets/a%23b']) {
      // The command answers a petId that is not a number with a 400: the request reached /v1/pets/{petId}.
      await expect(client.request({ method: 'GET', path })).rejects.toBeInstanceOf(sdk.BadRequestError);
    }
    expect((await requestsSeen()).map((request) => request.path)).toEqual(['/pets/a%3fb', '/pets/a%23b']);
    await expect(client.request({ method: 'GET', path: '/pets?x=1' })).rejects.toBeInstanceOf(
      sdk.RequestValidationError,
    );
  });
});
