import { afterEach, describe, expect, it } from 'vitest';
import { APIConnectionError, PetStoreClient } from '../../src/index.js';
import { API_KEY } from '../client/setup.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { httpClient } from './support/http-client.js';
import { expectKeyHidden } from './support/leaks.js';
import { attempts, created, createPet, listPets, matching } from './support/operations.js';
import {
  dropBeforeResponse,
  dropMidBody,
  forwardThenDrop,
  refusingUrl,
  startServer,
  type TestServer,
} from './support/servers.js';

useFaultHarness();

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('a refused connection', () => {
  it.each([
    { operation: listPets, expected: 3 },
    { operation: createPet, expected: 1 },
  ])(
    'fails $operation.name with APIConnectionError after $expected attempt(s)',
    async ({ operation, expected }) => {
      const { client, logger, attempts: sent } = httpClient(await refusingUrl());
      const { error } = await settle(operation.call(client));
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(sent()).toBe(expected);
      expectKeyHidden(error, logger);
    },
  );
});

describe('the reason a connection failed', () => {
  it('is named in the message: a refused connection gives its address', async () => {
    const url = await refusingUrl();
    const { client } = httpClient(url);
    const { error } = await settle(client.listPets({}, { maxRetries: 0 }));
    const { host } = new URL(url);
    expect((error as Error).message).toBe(
      `Could not reach the Animal Store service for GET /pets: connect ECONNREFUSED ${host}.`,
    );
  });

  it('is named in the message: a TLS handshake that fails gives its error', async () => {
    server = await startServer(dropBeforeResponse);
    const { client, logger } = httpClient(server.url.replace('http:', 'https:'));
    const { error } = await settle(client.listPets({}, { maxRetries: 0 }));
    expect(error).toBeInstanceOf(APIConnectionError);
    // Node's words for a server that does not speak TLS: `… wrong version number` or `… packet length too long`.
    expect((error as Error).message).toMatch(
      /^Could not reach the Animal Store service for GET \/pets: .*(ssl|tls|SSL|TLS|socket)/,
    );
    expectKeyHidden(error, logger);
  });

  it('is found however deep the fetch keeps it, with its code, and the key kept out', async () => {
    const failing = async () => {
      const lookup = Object.assign(new Error(`getaddrinfo ENOTFOUND pets.invalid ${API_KEY}`), {
        code: 'ENOTFOUND',
      });
      throw new TypeError('fetch failed', { cause: new Error('lookup', { cause: lookup }) });
    };
    const client = new PetStoreClient({
      apiKey: API_KEY,
      baseUrl: 'http://pets.invalid/v1',
      fetch: failing,
      maxRetries: 0,
    });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'Could not reach the Animal Store service for GET /pets: getaddrinfo ENOTFOUND pets.invalid [redacted].',
    );
  });

  it('adds the code where the message does not give it, and every address of an AggregateError', async () => {
    const refused = Object.assign(
      new AggregateError([
        new Error('connect ECONNREFUSED ::1:4010'),
        new Error('connect ECONNREFUSED 127.0.0.1:4010'),
      ]),
      { code: 'ECONNREFUSED' },
    );
    const client = new PetStoreClient({
      apiKey: API_KEY,
      baseUrl: 'http://localhost:4010/v1',
      fetch: async () => {
        throw new TypeError('fetch failed', { cause: refused });
      },
      maxRetries: 0,
    });
    const { error } = await settle(client.listPets());
    expect((error as Error).message).toBe(
      'Could not reach the Animal Store service for GET /pets: connect ECONNREFUSED ::1:4010; connect ECONNREFUSED 127.0.0.1:4010.',
    );
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });
});

describe('a connection reset before the response', () => {
  it.each([
    { operation: listPets, expected: 3 },
    { operation: createPet, expected: 1 },
  ])(
    'fails $operation.name with APIConnectionError after $expected attempt(s)',
    async ({ operation, expected }) => {
      server = await startServer(dropBeforeResponse);
      const { client, logger } = httpClient(server.url);
      const { error } = await settle(operation.call(client));
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(server.hits()).toBe(expected);
      expectKeyHidden(error, logger);
    },
  );
});

describe('a connection reset in the middle of the response body', () => {
  it('fails createPet with APIConnectionError and does not send it again', async () => {
    server = await startServer(dropMidBody);
    const { client, logger } = httpClient(server.url);
    const { error } = await settle(createPet.call(client));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.hits()).toBe(1);
    expectKeyHidden(error, logger);
  });
});

describe('a createPet that the service applied but whose answer was lost', () => {
  it('fails with APIConnectionError and leaves exactly one new pet', async () => {
    const { store } = faultSetup();
    server = await startServer(forwardThenDrop(store));
    const { client, logger } = httpClient(server.url);
    const { error } = await settle(createPet.call(client));
    expect(error).toBeInstanceOf(APIConnectionError);
    expect(server.hits()).toBe(1);
    expect(created(store)).toBe(1);
    expectKeyHidden(error, logger);
  });
});

describe('the fake store over HTTP dropping a connection', () => {
  it('recovers a listPets with one more attempt', async () => {
    const { store } = faultSetup();
    const running = await store.listen();
    try {
      store.injectFault({ match: matching(listPets), networkError: true });
      const { client, logger } = httpClient(running.url);
      const { error, value } = await settle(listPets.call(client));
      expect(error).toBeUndefined();
      expect(value).toHaveLength(1);
      expect(attempts(store, listPets)).toBe(2);
      expectKeyHidden(error, logger);
    } finally {
      await running.close();
    }
  });

  it('fails a createPet with APIConnectionError without sending it again', async () => {
    const { store } = faultSetup();
    const running = await store.listen();
    try {
      store.injectFault({ match: matching(createPet), networkError: true, times: Infinity });
      const { client, logger } = httpClient(running.url);
      const { error } = await settle(createPet.call(client));
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(attempts(store, createPet)).toBe(1);
      expect(created(store)).toBe(0);
      expectKeyHidden(error, logger);
    } finally {
      await running.close();
    }
  });
});
