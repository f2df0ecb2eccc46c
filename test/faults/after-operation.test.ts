import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RequestSent } from '../../src/errors.js';
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

// Real HTTP and real time. A stall or a drip ends when the client's timeout (a few hundred
// milliseconds) gives up; a reset or a cut body ends on its own, so those calls get a timeout long
// enough that a busy 2-core machine never reaches it. One warm-up call first, so that the first
// attempt under test does not pay for the connection and the first compilation.
const SHORT_TIMEOUT_MS = 600;
const LONG_TIMEOUT_MS = 5_000;
/** The longest any call here may take: every fault ends within a few client timeouts. */
const CALL_BOUND_MS = 15_000;
/** How long a test waits for the store on a busy machine to have handled the request. */
const HANDLED_WITHIN_MS = 5_000;

const STALLS: ReadonlySet<AfterOperationFault> = new Set([
  'stalled-response',
  'dripping-body',
  'stalled-body',
]);

let server: RunningFakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  vi.restoreAllMocks();
});

async function served(fault: AfterOperationFault): Promise<{
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
    timeout: STALLS.has(fault) ? SHORT_TIMEOUT_MS : LONG_TIMEOUT_MS,
    maxRetries: 3,
    logger,
    logLevel: 'debug',
  });
  await client.listPets({}, { timeout: LONG_TIMEOUT_MS });
  return { store, client, logger };
}

/** Waits until `check` holds, failing after {@link HANDLED_WITHIN_MS}. */
async function eventually(check: () => boolean): Promise<void> {
  const deadline = performance.now() + HANDLED_WITHIN_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`not handled within ${HANDLED_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The call's outcome, failing the test if the call takes longer than {@link CALL_BOUND_MS}. */
async function bounded<T>(call: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the call did not settle in ${CALL_BOUND_MS} ms`)),
      CALL_BOUND_MS,
    );
  });
  try {
    return await Promise.race([call, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** The call's error. */
async function failure(call: Promise<unknown>): Promise<PetStoreError> {
  try {
    await bounded(call);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('the call did not settle')) throw error;
    return error as PetStoreError;
  }
  throw new Error('the call succeeded');
}

const NEW_PET = { name: 'Bella', categoryId: 2, status: 'pending' } as const;

/** The fault, the class the caller sees, its message, and whether it says the request was sent. */
const MAY_EXIST = ' The pet may exist: list pets and look for "Bella" before creating it again.';
const CASES: readonly [AfterOperationFault, typeof APIConnectionError, RegExp, RequestSent][] = [
  // No answer arrived: the create may or may not have happened.
  [
    'lost-response',
    APIConnectionError,
    /^Could not reach the Animal Store service for POST \/pets: .+\.$/,
    'maybe',
  ],
  ['stalled-response', APIConnectionTimeoutError, /^POST \/pets timed out\.$/, 'maybe'],
  // The answer's headers arrived: the request reached the service, which acted on it.
  ['cut-body', APIConnectionError, /^The answer \(201\) was cut off for POST \/pets: .+\.$/, 'yes'],
  ['dripping-body', APIConnectionTimeoutError, /^POST \/pets timed out\.$/, 'yes'],
  ['stalled-body', APIConnectionTimeoutError, /^POST \/pets timed out\.$/, 'yes'],
];

describe.each(CASES)(
  'a createPet whose answer meets %s after the pet was created',
  (fault, errorClass, message, sent) => {
    it('fails once, is not sent again, and the store holds exactly one new pet', async () => {
      const { store, client, logger } = await served(fault);
      store.injectFault({
        afterOperation: fault,
        ...(fault === 'dripping-body' ? { dripInterval: 100 } : {}),
        match: { method: 'POST', path: '/pets' },
      });
      const error = await failure(client.createPet(NEW_PET));
      expect(error).toBeInstanceOf(errorClass);
      if (errorClass === APIConnectionError) expect(error).not.toBeInstanceOf(APIConnectionTimeoutError);
      // The message says the pet may exist and how to find out, whichever the fault.
      expect(error.message.endsWith(MAY_EXIST)).toBe(true);
      expect(error.message.slice(0, -MAY_EXIST.length)).toMatch(message);
      expect(error.sent).toBe(sent);
      // Once the answer's status came, the error carries it.
      expect((error as APIConnectionError).status).toBe(sent === 'yes' ? 201 : undefined);
      // The client may give up before a busy server has run the create: wait for the store to have it.
      await eventually(() =>
        store.requests.some((request) => request.method === 'POST' && request.response !== undefined),
      );
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
    const { store, client } = await served(fault);
    store.injectFault({
      afterOperation: fault,
      ...(fault === 'dripping-body' ? { dripInterval: 100 } : {}),
      match: { method: 'GET', path: '/pets' },
    });
    expect(await bounded(client.listPets())).toEqual([REX]);
    // After the warm-up: the spoiled attempt, then the retry that succeeded (on a busy machine a
    // retry may itself time out before it: the last attempt is the one that succeeded).
    const [spoiled, ...retries] = store.requests.slice(1);
    expect(spoiled?.afterOperation).toBe(fault);
    expect(spoiled?.status).toBe(fault === 'lost-response' || fault === 'stalled-response' ? undefined : 200);
    expect(retries.length).toBeGreaterThanOrEqual(1);
    expect(retries.at(-1)?.status).toBe(200);
  });
});
