/**
 * Every error class a caller can meet, each provoked for real and caught with `instanceof`.
 *
 *   npm run example -- errors
 *
 * Against a real service the cases that need control over the server (a rule it keeps to itself,
 * a tiny rate limit, an injected 503, a malformed body, a slow answer) are skipped: they run only
 * on the embedded fake.
 * Every line prints the error's `name`, `code` and `status`, never the API key, which no error
 * carries.
 *
 * @module
 */
import { createServer } from 'node:net';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  InternalServerError,
  NotFoundError,
  PetStoreClient,
  type PetStoreError,
  RateLimitError,
  RefusedError,
  RequestValidationError,
  ResponseValidationError,
} from '../src/index.js';
import { fakePetStoreConstants } from '../src/testing/index.js';
import { openTarget } from './support/target.js';

const TINY_PLAN_KEY = 'tiny-plan-key';

const target = await openTarget({
  // A second key with a plan of two requests a minute, to reach the limit in two calls.
  apiKeys: { ...fakePetStoreConstants.defaultApiKeys, [TINY_PLAN_KEY]: { perMinute: 2, perDay: 100 } },
});
const { store } = target;
// getPet's deprecation warning is the quickstart's subject; here it would only add noise.
const settings = { apiKey: target.apiKey, baseUrl: target.baseUrl, deprecationWarnings: false };
const client = new PetStoreClient(settings);

/** Runs a call that must fail with `expected`, and prints what the error says about itself. */
async function show(
  title: string,
  expected: abstract new (...args: never[]) => PetStoreError,
  call: () => Promise<unknown>,
) {
  try {
    await call();
  } catch (error) {
    if (!(error instanceof expected)) throw error;
    // An APIError has the code and the status the service sent; a RefusedError, the client's code alone.
    const code = error instanceof APIError || error instanceof RefusedError ? error.code : '-';
    const status = error instanceof APIError ? error.status : '-';
    console.log(`${title}\n  ${error.name} code=${code} status=${status}: ${error.message}`);
    return;
  }
  throw new Error(`${title}: expected ${expected.name}, but the call succeeded`);
}

function skip(title: string) {
  console.log(`${title}\n  skipped: needs the embedded fake server`);
}

try {
  await show('A limit above 100 is refused before anything is sent', RequestValidationError, () =>
    client.listPets({ limit: 500 }),
  );

  await show('No pet has this id', NotFoundError, () => client.getPet(987_654_321));

  await show('A wrong API key', AuthenticationError, () =>
    new PetStoreClient({ ...settings, apiKey: 'not-a-valid-key' }).listPets(),
  );

  if (store === undefined) {
    skip('The service rejects the request');
  } else {
    // The client checks everything the interface documents, so only a rule the service keeps to
    // itself (a longest name, say) gets as far as a 400. The fake plays such a service once.
    store.injectFault({
      status: 400,
      body: { code: 'invalid_body', message: 'name: at most 40 characters', status: 400 },
      match: { method: 'POST', path: '/pets' },
    });
    await show('The service rejects the request', BadRequestError, () =>
      client.createPet({ name: 'Rex the Magnificent, Terror of the Garden Hedge', categoryId: 1 }),
    );
  }

  if (store === undefined) {
    skip('The wait for the next rate-limit window is longer than maxRetryAfter');
  } else {
    // Two calls spend the window; the third would have to wait about a minute, longer than the
    // 5 s this client accepts, so it fails at once without sending a request that would be refused.
    const tiny = new PetStoreClient({ ...settings, apiKey: TINY_PLAN_KEY, maxRetryAfter: 5_000 });
    await tiny.listPets();
    await tiny.listPets();
    await show('The wait for the next rate-limit window is longer than maxRetryAfter', RefusedError, () =>
      tiny.listPets(),
    );
  }

  if (store === undefined) {
    skip('The service answers 429 asking for a wait longer than maxRetryAfter');
  } else {
    store.injectFault({
      status: 429,
      headers: { 'Retry-After': '3600' },
      match: { method: 'GET', path: '/pets' },
    });
    await show('The service answers 429 asking for a wait longer than maxRetryAfter', RateLimitError, () =>
      new PetStoreClient(settings).listPets(),
    );
  }

  if (store === undefined) {
    skip('The service fails with 503');
  } else {
    // A read is retried twice after a 5xx by default; maxRetries: 0 shows the error at the first one.
    store.injectFault({ status: 503, match: { method: 'GET', path: '/pets' } });
    await show('The service fails with 503', InternalServerError, () =>
      client.listPets({}, { maxRetries: 0 }),
    );
  }

  if (store === undefined) {
    skip('A success whose body is not a list of pets');
  } else {
    store.injectFault({ status: 200, body: [{ id: 'one', name: 'Rex' }] });
    await show('A success whose body is not a list of pets', ResponseValidationError, () =>
      client.listPets({}, { maxRetries: 0 }),
    );
  }

  if (store === undefined) {
    skip('The service answers slower than the timeout');
  } else {
    store.injectFault({ delay: 10_000 });
    await show('The service answers slower than the timeout', APIConnectionTimeoutError, () =>
      client.listPets({}, { timeout: 200, maxRetries: 0 }),
    );
  }

  const closedPort = await freePort();
  await show('Nothing listens at the base URL', APIConnectionError, () =>
    new PetStoreClient({
      ...settings,
      baseUrl: `http://127.0.0.1:${closedPort}/v1`,
      maxRetries: 0,
    }).listPets(),
  );

  await show('The caller aborts', APIUserAbortError, () => {
    const controller = new AbortController();
    const pending = client.listPets({}, { signal: controller.signal });
    controller.abort();
    return pending;
  });
} finally {
  await target.close();
}

/** A port that nothing listens on: the system picks a free one, and it is closed again at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
