import { describe, expect, it } from 'vitest';
import { PetListSchema } from '../../src/schemas.js';
import { createFakePetStore, samplePets } from '../../src/testing/index.js';
import { DEFAULT_PAGE_SIZE } from '../../src/testing/rules/operations.js';
import { authed, expectError, transports } from './support/transports.js';

describe.each(transports)('GET /pets over $name', (transport) => {
  async function list(query: string, pets = samplePets(150)) {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore({ pets }));
    return fetch(`${baseUrl}/pets${query}`, authed());
  }

  it('returns the first 20 pets, ordered by id, as a JSON array of Pet', async () => {
    const shuffled = samplePets(30).reverse();
    const response = await list('', shuffled);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const pets = PetListSchema.parse(await response.json());
    expect(DEFAULT_PAGE_SIZE).toBe(20);
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });

  it.each([
    ['?limit=1', 1],
    ['?limit=100', 100],
    ['?limit=5&status=sold', 5],
  ])('honours %s', async (query, count) => {
    const pets = PetListSchema.parse(await (await list(query)).json());
    expect(pets).toHaveLength(count);
  });

  it('filters by status', async () => {
    const pets = PetListSchema.parse(await (await list('?status=pending&limit=100')).json());
    expect(pets).toHaveLength(50);
    expect(pets.every((pet) => pet.status === 'pending')).toBe(true);
    expect(pets.map((pet) => pet.id)).toEqual([...pets.map((pet) => pet.id)].sort((a, b) => a - b));
  });

  it('returns an empty array when nothing matches', async () => {
    const response = await list('?status=sold', [{ id: 1, name: 'Rex', categoryId: 1, status: 'available' }]);
    expect(await response.json()).toEqual([]);
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?limit=-5', 'limit'],
    ['?limit=abc', 'limit'],
    ['?limit=2.5', 'limit'],
    ['?limit=1e1', 'limit'],
    ['?limit=', 'limit'],
    ['?limit=5&limit=6', 'limit'],
    ['?status=lost', 'status'],
    ['?status=', 'status'],
    ['?status=AVAILABLE', 'status'],
    ['?status=sold&status=pending', 'status'],
  ])('answers %s with a 400 naming %s', async (query, parameter) => {
    const body = await expectError(await list(query), 400, 'invalid_parameter');
    expect(body.message).toContain(`"${parameter}"`);
  });

  it('ignores unknown query parameters', async () => {
    const response = await list('?limit=2&offset=40&cursor=abc');
    expect(response.status).toBe(200);
    expect(PetListSchema.parse(await response.json()).map((pet) => pet.id)).toEqual([1, 2]);
  });
});
