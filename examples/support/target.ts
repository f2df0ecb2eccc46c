/**
 * Where an example sends its requests: the Animal Store service named by `PETSTORE_BASE_URL` and
 * `PETSTORE_API_KEY` when both are set, otherwise a fake Animal Store started in this process.
 *
 * The examples import the SDK by relative path so that they run straight from a clone, without a
 * build. In an application the same names come from 'animal-store-sdk' and 'animal-store-sdk/testing'.
 *
 * @module
 */
import {
  createFakePetStore,
  type FakePetStore,
  type FakePetStoreOptions,
  fakePetStoreConstants,
  samplePets,
} from '../../src/testing/index.js';

export interface Target {
  /** Where requests go, for the first line of output. Never includes the API key. */
  readonly description: string;
  readonly apiKey: string;
  readonly baseUrl: string;
  /** The embedded fake store, so an example can inject faults; `undefined` for a real service. */
  readonly store: FakePetStore | undefined;
  /** Stops the embedded server; nothing to do for a real service. */
  close(): Promise<void>;
}

/**
 * Picks the target and prints it as the first line of output.
 *
 * @param fake - Options for the embedded fake store; by default it holds five sample pets and
 * accepts `test-api-key` on the Free plan.
 */
export async function openTarget(fake: FakePetStoreOptions = {}): Promise<Target> {
  const baseUrl = process.env.PETSTORE_BASE_URL;
  const apiKey = process.env.PETSTORE_API_KEY;
  let target: Target;
  if (baseUrl && apiKey) {
    target = {
      description: `the Animal Store service at ${baseUrl} (from PETSTORE_BASE_URL)`,
      apiKey,
      baseUrl,
      store: undefined,
      close: async () => {},
    };
  } else {
    const store = createFakePetStore({ pets: samplePets(5), ...fake });
    // Loopback only, on a port the system picks, so examples never clash with anything running.
    const server = await store.listen({ port: 0, hostname: '127.0.0.1' });
    target = {
      description: `the embedded fake server at ${server.url} (set PETSTORE_BASE_URL and PETSTORE_API_KEY to use a real service)`,
      apiKey: fakePetStoreConstants.defaultApiKey,
      baseUrl: server.url,
      store,
      close: () => server.close(),
    };
  }
  console.log(`Using ${target.description}`);
  return target;
}
