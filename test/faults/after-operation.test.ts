import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  PetStoreClient,
  type PetStoreError,
} from '../../src/index.js';
import {
  type AfterOperationFault,
  createFakePetStore,
  type FakePetStore,
  type RunningFakeServer,
} from '../../src/testing/index.js';
import { API_KEY } from '../client/setup.js';
import { REX } from './support/harness.js';
import { expectKeyHidden, watchConsole, watchedLogger } from './support/leaks.js';

// Real HTTP and real time: a client timeout of a few hundred milliseconds holds on a busy 2-core
// machine, and every stall or drip is cut short by the client giving up.
const TIMEOUT_MS = 400;
/** The longest any call here may take: every fault ends within a few client timeouts. */
const CALL_BOUND_MS = 10_000;

let server: RunningFakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

async function served(): Promise<{
  store: FakePetStore;
  client: PetStoreClient;
  logger: ReturnType<typeof watchedLogger>;
}> {
  watchConsole();
  const store = createFakePetStore({ apiKeys: { [API_KEY]: 'pro' }, pets: [REX] });
  server = await store.listen();
  const logger = watchedLogger();
  const client = new PetStoreClient({
    apiKey: API_KEY,
    baseUrl: server.url,
    timeout: TIMEOUT_MS,
    maxRetries: 2,
    logger,
    logLevel: 'debug',
  });
  return { store, client, logger };
}

/** The call's error, failing the test if the call takes longer than {@link CALL_BOUND_MS}. */
async function failure(call: Promise<unknown>): Promise<PetStoreError> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the call did not settle in ${CALL_BOUND_MS} ms`)),
      CALL_BOUND_MS,
    );
  });
  try {
    await Promise.race([call, bound]);
  } catch (error) {
    return error as PetStoreError;
  } finally {
    clearTimeout(timer);
  }
  throw new Error('the call succeeded');
}

const NEW_PET = { name: 'Bella', categoryId: 2, status: 'pending' } as const;

/** The fault, the class the caller sees, and the message. */
const CASES: readonly [AfterOperationFault, typeof APIConnectionError, RegExp][] = [
  ['lost-response', APIConnectionError, /^Could not reach the Animal Store service for POST \/pets\.$/],
  ['stalled-response', APIConnectionTimeoutError, /^POST \/pets timed out\.$/],
  ['cut-body', APIConnectionError, /^Could not reach the Animal Store service for POST \/pets\.$/],
  ['dripping-body', APIConnectionTimeoutError, /^POST \/pets timed out\.$/],
  ['stalled-body', APIConnectionTimeoutError, /^POST \/pets timed out\.$/],
];

describe.each(CASES)(
  'a createPet whose answer meets %s after the pet was created',
  (fault, errorClass, message) => {
    it('fails once, is not sent again, and the store holds exactly one new pet', async () => {
      const { store, client, logger } = await served();
      store.injectFault({
        afterOperation: fault,
        ...(fault === 'dripping-body' ? { dripMs: 100 } : {}),
        match: { method: 'POST', path: '/pets' },
      });
      const error = await failure(client.createPet(NEW_PET));
      expect(error).toBeInstanceOf(errorClass);
      if (errorClass === APIConnectionError) expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
      expect(error.message).toMatch(message);
      const posts = store.requests.filter((request) => request.method === 'POST');
      expect(posts).toHaveLength(1);
      expect(store.pets.filter((pet) => pet.name === NEW_PET.name)).toHaveLength(1);
      expect(posts[0]?.afterOperation).toBe(fault);
      expect(posts[0]?.response?.status).toBe(201);
      expectKeyHidden(error, logger);
    });
  },
);

describe.each(CASES.map(([fault]) => fault))('a listPets whose first answer meets %s', (fault) => {
  it('is retried, as a read may be, and returns the pets', async () => {
    const { store, client } = await served();
    store.injectFault({
      afterOperation: fault,
      ...(fault === 'dripping-body' ? { dripMs: 100 } : {}),
      match: { method: 'GET', path: '/pets' },
    });
    const pets = await Promise.race([
      client.listPets(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('listPets hung')), CALL_BOUND_MS)),
    ]);
    expect(pets).toEqual([REX]);
    expect(store.requests.map((request) => request.status)).toEqual(
      fault === 'lost-response' || fault === 'stalled-response' ? [undefined, 200] : [200, 200],
    );
  });
});
