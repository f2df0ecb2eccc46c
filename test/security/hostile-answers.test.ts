/**
 * Hostile answers stay inside the error tree: a body nested 100,000 deep, one larger than
 * `maxResponseBytes` (without end, or small until decompressed), bad UTF-8 or the wrong types end
 * every call with a `PetStoreError` that says whether the request was sent, a create's saying the
 * pet may exist, and a 503 is still retried as the retry policy decides.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InternalServerError,
  PetStoreClient,
  PetStoreError,
  ResponseTooLargeError,
  ResponseValidationError,
} from '../../src/index.js';

const KEY = 'sk-hostile-answers-0123456789';
const BASE_URL = 'https://animal-store.test/v1';
const MAY_EXIST = 'The pet may exist: list pets and look for "Rex" before creating it again.';

/** 200 KB of JSON nested 100,000 deep: `[[[…]]]`, or `{"a":{"a":…}}`. */
const DEEP_ARRAY = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(40_000)}1${'}'.repeat(40_000)}`;

type Body = string | Uint8Array<ArrayBuffer> | (() => ReadableStream<Uint8Array>);

/** An answer as the service might send it: a status, a body, with or without a content type. */
interface Answer {
  readonly status: number;
  readonly body: Body;
  readonly json?: boolean;
  readonly headers?: Record<string, string>;
}

/** A client whose every attempt gets `answer`, and the attempts it sent. */
function clientAnswering(answer: Answer, options: { maxRetries?: number; maxResponseBytes?: number } = {}) {
  const sent: string[] = [];
  const client = new PetStoreClient({
    apiKey: KEY,
    baseUrl: BASE_URL,
    maxRetries: 0,
    logLevel: 'off',
    deprecationWarnings: false,
    ...options,
    fetch: async (input) => {
      sent.push(input instanceof Request ? input.method : 'GET');
      const { body } = answer;
      return new Response(typeof body === 'function' ? body() : body, {
        status: answer.status,
        headers: { ...(answer.json !== false && { 'content-type': 'application/json' }), ...answer.headers },
      });
    },
  });
  return { client, sent };
}

const OPERATIONS = {
  listPets: (client: PetStoreClient) => client.listPets(),
  createPet: (client: PetStoreClient) => client.createPet({ name: 'Rex', categoryId: 1 }),
  getPet: (client: PetStoreClient) => client.getPet(1),
  request: (client: PetStoreClient) => client.request({ method: 'GET', path: '/pets' }),
  'request with a schema': (client: PetStoreClient) =>
    client.request({
      method: 'GET',
      path: '/pets',
      schema: {
        '~standard': {
          version: 1,
          vendor: 'test',
          validate: (value: unknown) => ({ value, issues: JSON.stringify(value) ? undefined : [] }),
        },
      },
    }),
} as const;
type Operation = keyof typeof OPERATIONS;

const settle = (promise: Promise<unknown>): Promise<{ data?: unknown; error?: unknown }> =>
  promise.then(
    (data) => ({ data }),
    (error: unknown) => ({ error }),
  );

/** A body without end: `[` after `[`, 64 KiB at a time, counting what the client pulled. */
function endless(pulled: { bytes: number; cancelled: boolean }) {
  const chunk = new TextEncoder().encode('['.repeat(65_536));
  return () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled.bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
      cancel() {
        pulled.cancelled = true;
      },
    });
}

describe('a body nested 100,000 deep', () => {
  it.for(['listPets', 'getPet'] as const)(
    'fails %s on a 200 with a ResponseValidationError that holds the text',
    async (operation) => {
      const { client } = clientAnswering({ status: 200, body: DEEP_ARRAY });
      const { error } = (await settle(OPERATIONS[operation](client))) as { error: ResponseValidationError };
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error).toMatchObject({ sent: 'yes', status: 200, text: DEEP_ARRAY });
    },
  );

  it('fails a request() whose schema throws on it with a PetStoreError whose cause is the throw', async () => {
    const { client } = clientAnswering({ status: 200, body: DEEP_OBJECT });
    const { error } = (await settle(OPERATIONS['request with a schema'](client))) as { error: PetStoreError };
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error).toMatchObject({ sent: 'yes', message: 'GET /pets failed.' });
    expect(error.cause).toBeInstanceOf(RangeError);
  });

  it('fails a createPet answered 201 with an error that says the pet may exist', async () => {
    for (const body of [DEEP_ARRAY, DEEP_OBJECT]) {
      const { client, sent } = clientAnswering({ status: 201, body });
      const { error } = (await settle(OPERATIONS.createPet(client))) as { error: PetStoreError };
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(error.sent).toBe('yes');
      expect(error.message).toContain(MAY_EXIST);
      expect(sent).toEqual(['POST']);
    }
  });

  it('fails a 400 with a BadRequestError', async () => {
    for (const operation of Object.keys(OPERATIONS) as Operation[]) {
      const { client } = clientAnswering({ status: 400, body: DEEP_OBJECT });
      const { error } = await settle(OPERATIONS[operation](client));
      expect(error).toMatchObject({ name: 'BadRequestError', status: 400, sent: 'yes' });
    }
  });

  it('is retried on a 503 as the retry policy decides, then fails with an InternalServerError', async () => {
    const { client, sent } = clientAnswering({ status: 503, body: DEEP_ARRAY }, { maxRetries: 1 });
    const retried = settle(client.listPets());
    // The retry waits its backoff (at most a second) on the real clock.
    const { error } = await retried;
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, sent: 'yes' });
    expect(sent).toEqual(['GET', 'GET']);
  });
});

describe('a body larger than maxResponseBytes', () => {
  it('fails a success with a ResponseTooLargeError, reading no further than the cap of 10 MiB', async () => {
    const pulled = { bytes: 0, cancelled: false };
    const { client } = clientAnswering({ status: 200, body: endless(pulled) });
    const { error } = (await settle(client.listPets())) as { error: ResponseTooLargeError };
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({ sent: 'yes', status: 200, body: undefined, text: undefined });
    expect(error.message).toBe('The response to GET /pets is larger than maxResponseBytes (10485760 B).');
    expect(pulled.cancelled).toBe(true);
    // What the stream had queued ahead of the read, at most.
    expect(pulled.bytes).toBeLessThan(10_485_760 + 4 * 65_536);
  });

  it('fails a createPet answered 201 with an error that says the pet may exist', async () => {
    const { client } = clientAnswering({ status: 201, body: 'x'.repeat(2_000) }, { maxResponseBytes: 1_000 });
    const { error } = (await settle(OPERATIONS.createPet(client))) as { error: PetStoreError };
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error.message).toBe(
      `The response to POST /pets is larger than maxResponseBytes (1000 B). ${MAY_EXIST}`,
    );
  });

  it('retries a 503 as its status says, then fails with its error, no body kept', async () => {
    const pulled = { bytes: 0, cancelled: false };
    const { client, sent } = clientAnswering(
      { status: 503, body: endless(pulled) },
      { maxRetries: 1, maxResponseBytes: 100_000 },
    );
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 503, sent: 'yes', body: undefined });
    expect(sent).toEqual(['GET', 'GET']);
  });

  it('takes a call’s own maxResponseBytes over the client’s', async () => {
    const { client } = clientAnswering({ status: 200, body: '[]' }, { maxResponseBytes: 1 });
    await expect(client.listPets()).rejects.toThrow(ResponseTooLargeError);
    await expect(client.listPets({}, { maxResponseBytes: 2 })).resolves.toEqual([]);
  });

  it.for([0, 1.5, 2 ** 28 + 1, '10'])(
    'refuses maxResponseBytes %s before anything is sent',
    async (value) => {
      const options = { maxResponseBytes: value as number };
      expect(() => clientAnswering({ status: 200, body: '[]' }, options)).toThrow(/maxResponseBytes/);
      const { client, sent } = clientAnswering({ status: 200, body: '[]' });
      await expect(client.listPets({}, options)).rejects.toMatchObject({
        name: 'RequestValidationError',
        message: expect.stringMatching(/maxResponseBytes/),
      });
      expect(sent).toEqual([]);
    },
  );
});

describe('a gzip body over the cap once decompressed', () => {
  let server: Server;
  let baseUrl: string;
  // 11 MiB of JSON that gzip sends in about 11 KB.
  const zipped = gzipSync(`[${' '.repeat(11 * 1024 * 1024)}]`);

  beforeAll(async () => {
    server = createServer((_, response) => {
      // Its declared length, well within the cap, is the compressed one.
      response
        .writeHead(200, {
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': zipped.byteLength,
        })
        .end(zipped);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('fails with a ResponseTooLargeError: the cap counts the bytes as decompressed', async () => {
    expect(zipped.byteLength).toBeLessThan(100_000);
    const client = new PetStoreClient({ apiKey: KEY, baseUrl, maxRetries: 0, logLevel: 'off' });
    await expect(client.listPets()).rejects.toThrow(ResponseTooLargeError);
  });
});

describe('a failure that is none of the service’s answers', () => {
  it('is a PetStoreError with sent and the failure as cause: a fetch that throws', async () => {
    const failure = new Error(`proxy down for ${KEY}`);
    const client = new PetStoreClient({
      apiKey: KEY,
      baseUrl: BASE_URL,
      logLevel: 'off',
      fetch: async () => {
        throw failure;
      },
    });
    const { error } = (await settle(OPERATIONS.createPet(client))) as { error: PetStoreError };
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error).toMatchObject({ sent: 'maybe', message: `POST /pets failed. ${MAY_EXIST}` });
    expect((error.cause as Error).message).toBe('proxy down for [redacted]');
  });

  it('is a PetStoreError with sent: no, a rate-limit store that throws before anything is sent', async () => {
    const client = new PetStoreClient({
      apiKey: KEY,
      baseUrl: BASE_URL,
      logLevel: 'off',
      rateLimitStore: {
        acquire: () => {
          throw new Error('store gone');
        },
        release: () => undefined,
      },
    });
    const { error } = (await settle(client.listPets())) as { error: PetStoreError };
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error.sent).toBe('no');
  });
});

describe('every operation, whatever the service answers', () => {
  const STATUSES = [200, 201, 400, 404, 429, 503];
  const CAP = 4_096;

  /** Bodies a hostile or broken service may send. */
  const body: fc.Arbitrary<Body> = fc.oneof(
    fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT, '', 'null', '<html>oops</html>'),
    // Nested as deep as the draw says, arrays and objects mixed.
    fc.array(fc.constantFrom('[', '{"a":'), { minLength: 1, maxLength: 30 }).chain((opening) =>
      fc.integer({ min: 1, max: 5_000 }).map((times) => {
        const open = opening.join('').repeat(times);
        const close = [...opening]
          .reverse()
          .map((part) => (part === '[' ? ']' : '}'))
          .join('');
        return `${open}1${close.repeat(times)}`;
      }),
    ),
    // JSON of the wrong types and shapes, the key among its strings.
    fc.jsonValue().map((value) => JSON.stringify([value, KEY, { code: value, message: KEY }])),
    // Bytes that are no UTF-8, cut JSON.
    fc.uint8Array({ maxLength: 300 }).map((bytes) => Uint8Array.from(bytes)),
    fc.string().map((text) => `{"id":1,"name":${JSON.stringify(text)}`),
    // Over the cap.
    fc.integer({ min: CAP + 1, max: CAP * 4 }).map((size) => `[${' '.repeat(size)}]`),
  );

  it('resolves, or rejects with a PetStoreError that says the request was sent', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...(Object.keys(OPERATIONS) as Operation[])),
        fc.constantFrom(...STATUSES),
        body,
        fc.boolean(),
        async (operation, status, answer, json) => {
          const { client } = clientAnswering({ status, body: answer, json }, { maxResponseBytes: CAP });
          const outcome = await settle(OPERATIONS[operation](client));
          if (!('error' in outcome)) return;
          const { error } = outcome as { error: PetStoreError };
          expect(error).toBeInstanceOf(PetStoreError);
          expect(error.sent).toBe('yes');
          expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(KEY);
          if (operation === 'createPet' && status < 300) expect(error.message).toContain(MAY_EXIST);
        },
      ),
      { numRuns: 300 },
    );
  }, 120_000);
});
