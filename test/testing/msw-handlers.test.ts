import { HttpResponse, http } from 'msw';
import { setupServer } from 'msw/node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed } from './support/transports.js';

describe('store.handlers with setupServer', () => {
  let close = () => {};
  afterEach(() => close());

  /** Serves the stores through msw, failing and noting every request no handler takes. */
  function serve(...stores: ReturnType<typeof createFakePetStore>[]) {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const server = setupServer(...stores.flatMap((store) => store.handlers));
    const unhandled: string[] = [];
    server.events.on('request:unhandled', ({ request }) => {
      unhandled.push(request.url);
    });
    server.listen({ onUnhandledFrame: 'error' });
    close = () => {
      server.close();
      printed.mockRestore();
    };
    return { server, unhandled, printed };
  }

  it('leaves requests outside the base URL to msw as unhandled', async () => {
    const store = createFakePetStore();
    const { server, unhandled } = serve(store);
    server.use(http.get('http://elsewhere.test/ping', () => HttpResponse.text('pong')));
    expect(await (await fetch('http://elsewhere.test/ping')).text()).toBe('pong');
    for (const url of [
      'http://animal-store.test/v2/pets',
      'http://animal-store.test/v1x/pets',
      'http://animal-store.test/pets',
      'https://animal-store.test/v1/pets',
      'http://other.test/v1/pets',
    ]) {
      await expect(fetch(url, authed())).rejects.toThrow(TypeError);
    }
    expect(unhandled).toEqual([
      'http://animal-store.test/v2/pets',
      'http://animal-store.test/v1x/pets',
      'http://animal-store.test/pets',
      'https://animal-store.test/v1/pets',
      'http://other.test/v1/pets',
    ]);
    expect(store.requests).toEqual([]);
  });

  it('fails unhandled requests under onUnhandledFrame: error', async () => {
    const { printed } = serve(createFakePetStore());
    await expect(fetch('http://animal-store.test/v2/pets', authed())).rejects.toThrow(TypeError);
    expect(printed.mock.calls.flat().join(' ')).toContain('GET http://animal-store.test/v2/pets');
  });

  it('handles the base URL itself and every method below it', async () => {
    const store = createFakePetStore();
    const { unhandled } = serve(store);
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      await fetch('http://animal-store.test/v1', authed({ method }));
      await fetch('http://animal-store.test/v1/anything/below', authed({ method }));
    }
    expect(unhandled).toEqual([]);
    expect(store.requests).toHaveLength(12);
  });

  it('serves a base URL with a port, side by side with another store', async () => {
    const a = createFakePetStore({
      baseUrl: 'http://127.0.0.1:4010/v1',
      pets: [{ id: 1, name: 'A', categoryId: 1 }],
    });
    const b = createFakePetStore({
      baseUrl: 'http://127.0.0.1:4011/v1',
      pets: [{ id: 1, name: 'B', categoryId: 1 }],
    });
    serve(a, b);
    const fromA = await (await fetch('http://127.0.0.1:4010/v1/pets/1', authed())).json();
    const fromB = await (await fetch('http://127.0.0.1:4011/v1/pets/1', authed())).json();
    expect([fromA.name, fromB.name]).toEqual(['A', 'B']);
  });

  it('turns an injected network error into HttpResponse.error(), a rejected fetch', async () => {
    const store = createFakePetStore();
    serve(store);
    store.injectFault({ networkError: true });
    const failure = await fetch('http://animal-store.test/v1/pets', authed()).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
  });
});
