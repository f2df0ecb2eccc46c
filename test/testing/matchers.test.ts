import { expect as jestExpect } from 'expect';
import { describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  createFakePetStore,
  type FakePetStoreMatchers,
  fakePetStoreMatchers,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

expect.extend(fakePetStoreMatchers);
declare module 'vitest' {
  interface Matchers<R extends void | Promise<void> = void | Promise<void>, T = unknown>
    extends FakePetStoreMatchers<R> {}
}

async function storeAfterCalls() {
  const store = createFakePetStore();
  const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl: store.baseUrl, fetch: store.fetch });
  await client.listPets({ status: 'available' });
  await client.listPets({ status: 'available' });
  await client.createPet({ name: 'Rex', categoryId: 1 });
  return store;
}

function failureOf(assertion: () => void): string {
  try {
    assertion();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('The assertion passed');
}

describe('the fake store matchers', () => {
  it('pass on a store and on a list of logged requests', async () => {
    const store = await storeAfterCalls();

    expect(store).toHaveReceivedRequest({ method: 'POST', path: '/pets', body: { name: 'Rex' } });
    expect(store.requests).toHaveReceivedRequest({ path: '/pets', query: { status: 'available' } });
    expect(store).toHaveReceivedRequestTimes({ method: 'GET', path: '/pets' }, 2);
    expect(store).toHaveReceivedRequestTimes({ method: 'DELETE' }, 0);
    expect(store).not.toHaveReceivedRequest({ method: 'GET', path: '/pets/{petId}' });
  });

  it('print the closest requests and what differed when the expected one never came', async () => {
    const store = await storeAfterCalls();

    expect(
      failureOf(() => expect(store).toHaveReceivedRequest({ path: '/pets', query: { status: 'sold' } })),
    ).toBe(
      [
        'Expected the fake store to have received a request matching any method /pets?status=sold, but it received none.',
        '  The closest of the 3 requests received:',
        '    #1 GET /pets?status=available',
        '        - query.status is "available", not "sold"',
        '    #2 GET /pets?status=available',
        '        - query.status is "available", not "sold"',
        '    #3 POST /pets {"name":"Rex","categoryId":1}',
        '        - query.status is missing (expected "sold")',
      ].join('\n'),
    );
  });

  it('print the requests that did match, for .not and for a count that is off', async () => {
    const store = await storeAfterCalls();

    expect(failureOf(() => expect(store).not.toHaveReceivedRequest({ method: 'POST' }))).toBe(
      [
        'Expected the fake store to have received no request matching POST any path, but it received 1:',
        '    #3 POST /pets {"name":"Rex","categoryId":1}',
      ].join('\n'),
    );
    expect(
      failureOf(() => expect(store).toHaveReceivedRequestTimes({ method: 'GET', path: '/pets' }, 1)),
    ).toBe(
      [
        'Expected the fake store to have received 1 request(s) matching GET /pets, but it received 2.',
        '  Those received:',
        '    #1 GET /pets?status=available',
        '    #2 GET /pets?status=available',
      ].join('\n'),
    );
  });

  it('work in Jest’s expect, .not included', async () => {
    const store = await storeAfterCalls();
    jestExpect.extend(fakePetStoreMatchers);
    const jestAssert = (received: unknown) =>
      jestExpect(received) as unknown as FakePetStoreMatchers<void> & { not: FakePetStoreMatchers<void> };

    jestAssert(store).toHaveReceivedRequestTimes({ method: 'GET', path: '/pets' }, 2);
    jestAssert(store).not.toHaveReceivedRequest({ method: 'DELETE' });
    expect(() =>
      jestAssert(store).toHaveReceivedRequest({ path: '/pets', query: { status: 'sold' } }),
    ).toThrow(/#1 GET \/pets\?status=available\n {8}- query.status is "available", not "sold"/);
  });

  it('refuse what is not a store or its requests', () => {
    expect(() => expect({}).toHaveReceivedRequest({ path: '/pets' })).toThrow(
      /Expected a fake store \(createFakePetStore\(\)\) or its logged requests/,
    );
  });
});
