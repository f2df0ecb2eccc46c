import { describe, expect, it } from 'vitest';
import type { FaultMatch } from '../../src/testing/disruptions/faults.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed, postJson, transports } from './support/transports.js';

describe.each(transports)('faults matching the request over $name', (transport) => {
  async function statuses(match: FaultMatch, requests: Array<[string, RequestInit?]>) {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }] });
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, times: Number.POSITIVE_INFINITY, match });
    const answers: number[] = [];
    for (const [path, init] of requests)
      answers.push((await fetch(`${baseUrl}${path}`, init ?? authed())).status);
    return answers;
  }

  it('by query parameter, among repeated values', async () => {
    expect(
      await statuses({ query: { status: 'sold' } }, [
        ['/pets?status=sold'],
        ['/pets?status=available'],
        ['/pets?limit=5&status=sold'],
        ['/pets'],
      ]),
    ).toEqual([503, 200, 503, 200]);
    expect(
      await statuses({ path: '/pets', query: { tag: 'b' } }, [['/pets?tag=a&tag=b'], ['/pets?tag=a']]),
    ).toEqual([503, 200]);
  });

  it('by header, its name in any case', async () => {
    const traced = (value: string) => authed({ headers: { 'X-Tenant': value } });
    expect(
      await statuses({ headers: { 'x-TENANT': 'blue' } }, [
        ['/pets', traced('blue')],
        ['/pets', traced('green')],
        ['/pets'],
      ]),
    ).toEqual([503, 200, 200]);
  });

  it('by JSON body: the given fields, recursively, others allowed', async () => {
    expect(
      await statuses({ method: 'POST', body: { name: 'Rex' } }, [
        ['/pets', postJson({ name: 'Rex', categoryId: 1 })],
        ['/pets', postJson({ name: 'Luna', categoryId: 1 })],
        ['/pets', postJson({ name: 'Rex', categoryId: 2, status: 'sold' })],
      ]),
    ).toEqual([503, 201, 503]);
  });

  it('by path pattern, with {name} segments', async () => {
    expect(
      await statuses({ method: 'GET', path: '/pets/{petId}' }, [
        ['/pets/1'],
        ['/pets/2/'],
        ['/pets'],
        ['/pets/1/x'],
      ]),
    ).toEqual([503, 503, 200, 404]);
  });

  it('by predicate, given the request as the log records it', async () => {
    const seen: string[] = [];
    expect(
      await statuses(
        {
          predicate: (request) => {
            seen.push(`${request.method} ${request.path}`);
            return request.headers.authorization === undefined;
          },
        },
        [['/pets'], ['/pets', {}]],
      ),
    ).toEqual([200, 503]);
    expect(seen).toEqual(['GET /pets', 'GET /pets']);
  });

  it('the nth matching request only: fail the second call', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, match: { path: '/pets', nth: 2 } });
    store.injectFault({ status: 500, times: 2, match: { method: 'POST', nth: 3 } });
    const get = async () => (await fetch(`${baseUrl}/pets`, authed())).status;
    const post = async () =>
      (await fetch(`${baseUrl}/pets`, postJson({ name: 'Rex', categoryId: 1 }))).status;
    // Requests to other paths do not count towards a fault's nth.
    expect((await fetch(`${baseUrl}/pets/9`, authed())).status).toBe(404);
    expect([await get(), await get(), await get()]).toEqual([200, 503, 200]);
    expect([await post(), await post(), await post(), await post(), await post()]).toEqual([
      201, 201, 500, 500, 201,
    ]);
  });
});

describe('injectFault checks the match', () => {
  it.each<[string, FaultMatch, RegExp]>([
    ['nth of 0', { nth: 0 }, /match\.nth must be a positive integer, got 0/],
    ['a fractional nth', { nth: 1.5 }, /match\.nth/],
    [
      'a query value that is not a string',
      { query: { limit: 5 as unknown as string } },
      /match\.query\.limit must be a string/,
    ],
    [
      'headers that are not an object',
      { headers: 'x' as unknown as Record<string, string> },
      /match\.headers must be an object/,
    ],
    [
      'a predicate that is not a function',
      { predicate: true as unknown as () => boolean },
      /match\.predicate must be a function/,
    ],
    ['an empty method', { method: '' }, /match\.method/],
  ])('rejects %s', (_name, match, message) => {
    expect(() => createFakePetStore().injectFault({ status: 503, match })).toThrow(message);
  });
});
