/**
 * The SDK's requests against the OpenAPI description, checked with ajv through `checkContract`: every
 * call the client makes, for any arguments it accepts, is an operation of the contract with its
 * parameters, its key and its body; and `checkContract` names what an application gets wrong.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ListPetsParams, type NewPet, PetStoreClient, type RequestOptions } from '../../src/index.js';
import { checkContract, createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { latin1RequestOptions, listParams, newPet, petId } from '../properties/support/arbitraries.js';
import { callOnce, propertyStore } from '../properties/support/calls.js';
import { useFakeClock } from '../support/fake-clock.js';

describe('the SDK’s requests', () => {
  it('keep the contract in every operation and in request()', async () => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
      logger: { warn: () => {} },
    });

    await client.listPets();
    await client.listPets({ limit: 100, status: 'sold' });
    await client.createPet({ name: 'Tom', categoryId: 2 });
    await client.createPet(
      { name: 'Mia', categoryId: 3, status: 'pending' },
      { headers: { 'X-Trace': 'a' } },
    );
    await client.getPet(1);
    await client.request({ method: 'GET', path: '/pets', query: { limit: 5 } });
    await client.request({ method: 'POST', path: '/pets', body: { name: 'Raw', categoryId: 4 } });

    expect(store.requests).toHaveLength(7);
    expect(checkContract(store.requests)).toEqual([]);
  });

  describe('for any arguments the client accepts', () => {
    beforeEach(useFakeClock);
    afterEach(() => {
      vi.useRealTimers();
    });

    it('keep the contract: listPets, createPet and getPet', async () => {
      const store = propertyStore();
      const calls = fc.oneof(
        fc.tuple(fc.constant('listPets' as const), listParams, latin1RequestOptions),
        fc.tuple(fc.constant('createPet' as const), newPet, latin1RequestOptions),
        fc.tuple(fc.constant('getPet' as const), petId, latin1RequestOptions),
      );
      await fc.assert(
        fc.asyncProperty(calls, async ([operation, argument, options]) => {
          await callOnce(store, (client) => {
            const callOptions = options as RequestOptions;
            if (operation === 'listPets') return client.listPets(argument as ListPetsParams, callOptions);
            if (operation === 'createPet') return client.createPet(argument as NewPet, callOptions);
            return client.getPet(argument as number, callOptions);
          });
          expect(checkContract(store.requests)).toEqual([]);
        }),
        { numRuns: 200 },
      );
    });
  });
});

describe('checkContract', () => {
  it('lists what an application sent outside the contract, request by request, never the key', async () => {
    const store = createFakePetStore();
    const key = { Authorization: `Bearer ${DEFAULT_API_KEY}` };
    const send = (path: string, init: RequestInit = { headers: key }) =>
      store.fetch(`${store.baseUrl}${path}`, init);

    await send('/pets?limit=500&stauts=sold');
    await send('/pets/abc');
    await send('/store/orders');
    await send('/pets', { method: 'DELETE', headers: key });
    await send('/pets', {
      method: 'POST',
      headers: { ...key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1.5, stauts: 'sold' }),
    });
    await send('/pets', { method: 'POST', headers: { ...key, 'Content-Type': 'text/plain' }, body: 'Rex' });
    await send('/pets', { headers: { Authorization: `Basic ${DEFAULT_API_KEY}` } });
    await send('/pets?status=sold&status=pending');
    const violations = checkContract(store.requests);

    expect(violations).toEqual([
      { request: 'GET /pets?limit=500&stauts=sold', index: 1, at: 'query.limit', problem: 'must be <= 100' },
      {
        request: 'GET /pets?limit=500&stauts=sold',
        index: 1,
        at: 'query.stauts',
        problem: 'is not a parameter of GET /pets',
      },
      { request: 'GET /pets/abc', index: 2, at: 'path.petId', problem: 'must be integer' },
      {
        request: 'GET /store/orders',
        index: 3,
        at: 'operation',
        problem: 'no path of the contract matches /store/orders; it has /pets, /pets/{petId}',
      },
      {
        request: 'DELETE /pets',
        index: 4,
        at: 'operation',
        problem: 'the contract has no DELETE on /pets; it has GET, POST',
      },
      {
        request: 'POST /pets',
        index: 5,
        at: 'body',
        problem: 'has "stauts", which the schema does not allow',
      },
      { request: 'POST /pets', index: 5, at: 'body/categoryId', problem: 'must be integer' },
      { request: 'POST /pets', index: 5, at: 'body/categoryId', problem: 'must match format "int64"' },
      {
        request: 'POST /pets',
        index: 6,
        at: 'header.content-type',
        problem: 'is "text/plain"; the contract takes application/json',
      },
      { request: 'GET /pets', index: 7, at: 'header.authorization', problem: 'is not "Bearer <API key>"' },
      {
        request: 'GET /pets?status=sold&status=pending',
        index: 8,
        at: 'query.status',
        problem: 'is given 2 times; the contract takes one value',
      },
    ]);
    expect(JSON.stringify(violations)).not.toContain(DEFAULT_API_KEY);
  });
});
