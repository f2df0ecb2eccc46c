/**
 * letFakeStoreThrough(): msw's unhandled-request option that passes the fake's own traffic (a
 * listen() server on a random port, a fake connectFakePetStore drives) and fails everything else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setupServer } from 'msw/node';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  connectFakePetStore,
  createFakePetStore,
  letFakeStoreThrough,
  samplePets,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

function msw(options: Parameters<ReturnType<typeof setupServer>['listen']>[0]) {
  const server = setupServer();
  server.listen(options);
  onTestFinished(() => server.close());
}

async function fakeServer() {
  const server = await createFakePetStore({ pets: samplePets(2) }).listen();
  onTestFinished(() => server.close());
  return server;
}

/** A loopback server that is not the fake: it counts what reaches it. */
async function otherServer() {
  const reached: string[] = [];
  const server = createServer((req, res) => {
    reached.push(req.url ?? '');
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, reached };
}

const clientOf = (baseUrl: string) => new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl, maxRetries: 0 });

describe('letFakeStoreThrough()', () => {
  it('lets a listen() server through on the port it chose, by any loopback name, and nothing else', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = await fakeServer();
    const other = await otherServer();
    msw(letFakeStoreThrough());

    expect(await clientOf(fake.url).listPets()).toHaveLength(2);
    expect(await clientOf(fake.url.replace('127.0.0.1', 'localhost')).listPets()).toHaveLength(2);
    expect(printed).not.toHaveBeenCalled();
    await expect(fetch(other.url)).rejects.toThrow(TypeError);
    expect(other.reached).toEqual([]);
    expect(printed.mock.calls.flat().join(' ')).toContain(`GET ${other.url}`);
  });

  it('stops letting a server through once it is closed', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = await createFakePetStore().listen();
    msw(letFakeStoreThrough());
    await fake.close();

    await expect(fetch(fake.url)).rejects.toThrow(TypeError);
    expect(printed.mock.calls.flat().join(' ')).toContain(`GET ${fake.url}`);
  });

  it('lets connectFakePetStore and the app reach a fake in another process', async () => {
    const fake = await fakeServer();
    msw(letFakeStoreThrough());
    const remote = connectFakePetStore(fake.url);

    await remote.injectFault({ status: 503, match: { path: '/pets' } });
    await expect(clientOf(fake.url).listPets()).rejects.toMatchObject({ status: 503 });
    await remote.verify();
  });

  it('lets through the origin of a fake connectFakePetStore drives, wherever it runs', async () => {
    const elsewhere = await otherServer(); // stands for a fake another process started
    msw(letFakeStoreThrough());
    connectFakePetStore(`${elsewhere.url}v1`);

    expect(await (await fetch(`${elsewhere.url}v1/pets`)).text()).toBe('ok');
  });

  it('is what msw lacks: its "error" strategy refuses the fake on its random port', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const fake = await fakeServer();
    msw({ onUnhandledFrame: 'error' });

    await expect(clientOf(fake.url).listPets()).rejects.toThrow(/Cannot bypass a request/);
  });

  it('lets the origins of `urls` through, and warns rather than fails with otherwise: "warn"', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const listed = await otherServer();
    const unlisted = await otherServer();
    msw(letFakeStoreThrough({ urls: [listed.url], otherwise: 'warn' }));

    expect(await (await fetch(listed.url)).text()).toBe('ok');
    expect(warn).not.toHaveBeenCalled();
    expect(await (await fetch(unlisted.url)).text()).toBe('ok');
    expect(warn.mock.calls.flat().join(' ')).toContain(unlisted.url);
  });

  it("answers msw 2's callback the same way: print.error() for others, nothing for the fake", async () => {
    const fake = await fakeServer();
    const { onUnhandledRequest } = letFakeStoreThrough();
    const print = { warning: vi.fn(), error: vi.fn() };

    onUnhandledRequest(new Request(fake.url), print);
    expect(print.error).not.toHaveBeenCalled();
    let thrown: unknown;
    try {
      onUnhandledRequest(new Request('https://elsewhere.example/'), print);
    } catch (error) {
      thrown = error;
    }
    expect(print.error).toHaveBeenCalledOnce();
    // A network error, as later msw 2 releases' print.error() only prints.
    expect(thrown).toBeInstanceOf(Response);
    expect((thrown as Response).type).toBe('error');
  });

  it('refuses an unknown option or strategy', () => {
    expect(() => letFakeStoreThrough({ otherwize: 'warn' } as never)).toThrow(TypeError);
    expect(() => letFakeStoreThrough({ otherwise: 'ignore' } as never)).toThrow(
      'otherwise must be "error", "warn" or "bypass", got ignore',
    );
  });
});
