import { describe, expect, it, onTestFinished } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  connectFakePetStore,
  createFakePetStore,
  FakeStoreVerificationError,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

async function serve() {
  const server = await createFakePetStore({ strict: true }).listen();
  onTestFinished(() => server.close());
  return connectFakePetStore(server.url);
}

describe('remote.verify() through the control API', () => {
  it('names a fault that never fired with its near misses, and passes once it fired', async () => {
    const remote = await serve();
    await remote.injectFault({ status: 503, match: { method: 'GET', path: '/pet' } });
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: remote.baseUrl, maxRetries: 0 });
    await client.listPets();

    const error = await remote.verify().then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(error).toBeInstanceOf(FakeStoreVerificationError);
    expect((error as FakeStoreVerificationError).problems).toEqual([
      'a fault (status 503) for GET /pet never fired.\n  The closest of the 1 requests received:\n    #1 GET /pets\n        - path is "/pets", not "/pet"',
    ]);
    await remote.clearFaults();
    await remote.injectFault({ status: 503, match: { method: 'GET', path: '/pets' } });
    await expect(client.listPets()).rejects.toMatchObject({ status: 503 });
    await expect(remote.verify()).resolves.toBeUndefined();
  });

  it('in a session of a strict server, names a request to a path the fake does not model', async () => {
    const remote = await serve();
    const session = await remote.createSession();
    onTestFinished(() => session.end());
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: session.baseUrl });
    await client.request({ method: 'GET', path: '/store/orders' }).catch(() => {});

    await expect(session.verify()).rejects.toThrow(
      '#1 GET /store/orders reached a path the fake does not model (404 not_modelled).',
    );
    await expect(remote.verify()).resolves.toBeUndefined();
  });
});
