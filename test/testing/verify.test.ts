import { describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  createFakePetStore,
  type FakePetStore,
  FakeStoreVerificationError,
  nearMisses,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';

function clientOf(store: FakePetStore): PetStoreClient {
  return new PetStoreClient({
    apiKey: DEFAULT_API_KEY,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
    maxRetries: 0,
    logger: { warn: () => {} },
  });
}

function verifyFailure(store: FakePetStore): FakeStoreVerificationError {
  try {
    store.verify();
  } catch (error) {
    if (error instanceof FakeStoreVerificationError) return error;
    throw error;
  }
  throw new Error('verify() passed');
}

describe('store.verify()', () => {
  it('passes when every fault fired as often as given', async () => {
    const store = createFakePetStore();
    store.injectFault({ status: 503, times: 2, match: { path: '/pets' } });
    store.injectFault({ status: 500, times: Number.POSITIVE_INFINITY, match: { path: '/pets/{petId}' } });
    const client = clientOf(store);
    await client.listPets().catch(() => {});
    await client.listPets().catch(() => {});
    await client.getPet(1).catch(() => {});

    expect(() => store.verify()).not.toThrow();
  });

  it('names a fault that never fired, with the closest requests received and what differed', async () => {
    const store = createFakePetStore();
    // A typo: the fault waits for /pet, the app lists /pets.
    store.injectFault({ status: 503, match: { method: 'GET', path: '/pet', query: { status: 'sold' } } });
    const client = clientOf(store);
    await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.listPets({ status: 'available' });
    await client.request({ method: 'GET', path: '/store/orders' }).catch(() => {});

    const error = verifyFailure(store);

    expect(error.problems).toHaveLength(1);
    expect(error.message).toBe(
      [
        'The fake Animal Store was not used as the test set it up (1 problem):',
        '- a fault (status 503) for GET /pet?status=sold never fired.',
        '  The closest of the 3 requests received:',
        '    #2 GET /pets?status=available',
        '        - path is "/pets", not "/pet"',
        '        - query.status is "available", not "sold"',
        '    #3 GET /store/orders',
        '        - path is "/store/orders", not "/pet"',
        '        - query.status is missing (expected "sold")',
        '    #1 POST /pets {"name":"Rex","categoryId":1}',
        '        - method is POST, not GET',
        '        - path is "/pets", not "/pet"',
        '        - query.status is missing (expected "sold")',
      ].join('\n'),
    );
  });

  it('names a fault used fewer times than given, and one whose nth match never came', async () => {
    const store = createFakePetStore();
    store.injectFault({ status: 503, times: 3, match: { method: 'GET', path: '/pets' } });
    store.injectFault({ status: 502, match: { method: 'POST', nth: 2 } });
    const client = clientOf(store);
    await client.listPets().catch(() => {});
    await client.createPet({ name: 'Rex', categoryId: 1 });

    expect(verifyFailure(store).problems).toEqual([
      'a fault (status 503) for GET /pets fired 1 of 3 times.',
      'a fault (status 502) for POST any path (from the 2nd match) never fired: 1 request matched, fewer than 2.',
    ]);
  });

  it('says when the store received nothing, and reset() forgets the faults', () => {
    const store = createFakePetStore();
    store.injectFault({ networkError: true, match: { path: '/pets/{petId}' } });

    expect(verifyFailure(store).problems).toEqual([
      'a fault (networkError) for any method /pets/{petId} never fired.\n  The store received no request.',
    ]);
    store.reset();
    expect(() => store.verify()).not.toThrow();
  });

  it('names each fault by its kind: after the operation, with a delay, or a delay alone', () => {
    const store = createFakePetStore();
    store.injectFault({ afterOperation: 'lost-response', match: { method: 'POST', path: '/pets' } });
    store.injectFault({ afterOperation: 'dripping-body', dripInterval: 200, match: { path: '/pets' } });
    store.injectFault({ status: 503, delay: 2_000, match: { path: '/pets' } });
    store.injectFault({ delay: 500, match: { path: '/pets' } });

    expect(verifyFailure(store).problems.map((problem) => problem.split(' for ')[0])).toEqual([
      'a fault (lost-response)',
      'a fault (dripping-body, dripInterval 200)',
      'a fault (status 503, delay 2000)',
      'a fault (delay 500)',
    ]);
  });

  it('fails on a request to a path the fake does not model only when the store is strict', async () => {
    const lenient = createFakePetStore();
    const strict = createFakePetStore({ strict: true });
    for (const store of [lenient, strict]) {
      await clientOf(store)
        .request({ method: 'GET', path: '/store/orders' })
        .catch(() => {});
    }

    expect(() => lenient.verify()).not.toThrow();
    expect(verifyFailure(strict).problems).toEqual([
      '#1 GET /store/orders reached a path the fake does not model (404 not_modelled).',
    ]);
  });

  it('says a request matched all but the predicate', async () => {
    const store = createFakePetStore();
    store.injectFault({
      status: 503,
      match: { path: '/pets', predicate: (request) => 'x-trace' in request.headers },
    });
    await clientOf(store).listPets();

    expect(verifyFailure(store).problems).toEqual([
      'a fault (status 503) for any method /pets (with a predicate) never fired.\n  The closest of the 1 requests received:\n    #1 GET /pets\n        - its predicate returned false',
    ]);
  });

  it('never shows the value of an Authorization header', async () => {
    const store = createFakePetStore();
    store.injectFault({ status: 503, match: { headers: { Authorization: 'Bearer other-key' } } });
    await clientOf(store).listPets();

    const error = verifyFailure(store);

    expect(error.message).toContain('- header authorization differs');
    expect(error.message).not.toContain(DEFAULT_API_KEY);
  });
});

describe('nearMisses', () => {
  it('orders by fewest differences, then the nearest path, and compares body fields', async () => {
    const store = createFakePetStore();
    const client = clientOf(store);
    await client.createPet({ name: 'Rexx', categoryId: 1 });
    await client.createPet({ name: 'Bella', categoryId: 2 });
    await client.listPets();

    expect(
      nearMisses({ method: 'POST', path: '/pets', body: { name: 'Rex', categoryId: 2 } }, store.requests),
    ).toEqual([
      {
        request: 'POST /pets {"name":"Bella","categoryId":2}',
        index: 2,
        differences: ['body.name is "Bella", not "Rex"'],
      },
      {
        request: 'POST /pets {"name":"Rexx","categoryId":1}',
        index: 1,
        differences: ['body.name is "Rexx", not "Rex"', 'body.categoryId is 1, not 2'],
      },
      {
        request: 'GET /pets',
        index: 3,
        differences: ['method is GET, not POST', 'body is missing'],
      },
    ]);
  });
});
