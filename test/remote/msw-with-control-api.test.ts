/**
 * msw and the control API of a fake in another process, in one test file: with msw's "error"
 * strategy, connectFakePetStore's own requests are refused, unless the strategy lets the control URL
 * through, as docs/testing.md shows.
 */
import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  connectFakePetStore,
  createFakePetStore,
  letFakeStoreThrough,
  samplePets,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

async function fakeElsewhere() {
  const server = await createFakePetStore({ pets: samplePets(2) }).listen();
  onTestFinished(() => server.close());
  return server;
}

function mswServer(options: Parameters<ReturnType<typeof setupServer>['listen']>[0]) {
  const msw = setupServer(http.get('https://analytics.example/ping', () => HttpResponse.json({ ok: true })));
  msw.listen(options);
  onTestFinished(() => msw.close());
  return msw;
}

describe('msw beside the control API', () => {
  it('with onUnhandledFrame "error", blocks connectFakePetStore’s own requests', async () => {
    const server = await fakeElsewhere();
    mswServer({ onUnhandledFrame: 'error' });

    await expect(Promise.resolve(connectFakePetStore(server.url).pets)).rejects.toThrow(/fetch failed/);
  });

  it('with the control and API URLs let through, drives the fake and the app reaches it', async () => {
    const server = await fakeElsewhere();
    // The fix of docs/testing.md: the fake's own requests pass, anything else unhandled is an error.
    mswServer(letFakeStoreThrough());
    const remote = connectFakePetStore(server.url);
    const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: server.url });

    await remote.injectFault({ status: 503, match: { path: '/pets' } });
    await expect(client.listPets({}, { maxRetries: 0 })).rejects.toMatchObject({ status: 503 });
    expect(await client.listPets()).toHaveLength(2);
    expect(await (await fetch('https://analytics.example/ping')).json()).toEqual({ ok: true });
    await expect(fetch('https://elsewhere.example/')).rejects.toThrow(TypeError);
  });
});
