/**
 * Passing your own `fetch`: here a wrapper that logs each attempt's method, URL, status and
 * duration (never its headers, which carry the API key), and cancelling calls with an
 * AbortController or `AbortSignal.timeout`.
 *
 *   npm run example -- custom-fetch
 *
 * On the embedded fake server the cancelled calls meet an injected slow answer, so the abort lands
 * while the request is on the wire. Against a real service the AbortController example aborts
 * before sending, and the `AbortSignal.timeout` one may finish first.
 *
 * @module
 */
import { APIUserAbortError, type Fetch, PetStoreClient } from '../src/index.js';
import { openTarget } from './support/target.js';

/** Logs one line per attempt, retries included. */
const loggingFetch: Fetch = async (input, init) => {
  // The client passes a Request; a plain URL comes with its method in init.
  const method = input instanceof Request ? input.method : (init?.method ?? 'GET');
  const url = input instanceof Request ? input.url : String(input);
  const started = performance.now();
  const took = () => `${Math.round(performance.now() - started)} ms`;
  try {
    const response = await fetch(input, init);
    console.log(`  fetch: ${method} ${url} -> ${response.status} (${took()})`);
    return response;
  } catch (error) {
    console.log(`  fetch: ${method} ${url} -> ${error instanceof Error ? error.name : 'failed'} (${took()})`);
    throw error;
  }
};

/** Awaits a call expected to be aborted, and prints how it ended. */
async function expectAbort(call: Promise<unknown>) {
  try {
    await call;
    console.log('  it finished before the abort');
  } catch (error) {
    if (!(error instanceof APIUserAbortError)) throw error;
    console.log(`  ${error.name}: ${error.message}`);
  }
}

const target = await openTarget();
const { store } = target;
try {
  const client = new PetStoreClient({ apiKey: target.apiKey, baseUrl: target.baseUrl, fetch: loggingFetch });

  console.log('listPets and createPet through the logging fetch');
  const pets = await client.listPets({ limit: 3, status: 'available' });
  const pet = await client.createPet({ name: 'Biscuit', categoryId: 1 });
  console.log(`  ${pets.length} pets listed; created #${pet.id}`);

  console.log('An AbortController cancels a call that is waiting for its answer');
  store?.injectFault({ delay: 5_000 });
  const controller = new AbortController();
  const pending = client.listPets({}, { signal: controller.signal });
  if (store === undefined) controller.abort();
  else setTimeout(() => controller.abort(), 100);
  await expectAbort(pending);

  // Unlike the timeout option, which limits each attempt and is retried (APIConnectionTimeoutError
  // when all fail), a signal bounds the whole call, waits between retries included.
  console.log('AbortSignal.timeout(200) gives a whole call, retries included, 200 ms');
  store?.injectFault({ delay: 5_000 });
  await expectAbort(client.listPets({}, { signal: AbortSignal.timeout(200) }));
} finally {
  await target.close();
}
