import { describe, expect, it } from 'vitest';
import { PetSchema } from '../../src/schemas.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_NEW_PET_STATUS } from '../../src/testing/store/pet-repository.js';
import { authed, expectError, postJson, transports } from './support/transports.js';

describe.each(transports)('POST /pets over $name', (transport) => {
  it('creates the pet with a new id, answers 201 with it and a Location', async () => {
    const store = createFakePetStore({ pets: [{ id: 7, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    const response = await fetch(
      `${baseUrl}/pets`,
      postJson({ name: 'Tom', categoryId: 2, status: 'pending' }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/json');
    const pet = PetSchema.parse(await response.json());
    expect(pet).toEqual({ id: 8, name: 'Tom', categoryId: 2, status: 'pending' });
    expect(response.headers.get('location')).toBe(`${baseUrl}/pets/8`);
    expect(store.pets).toEqual([{ id: 7, name: 'Rex', categoryId: 1 }, pet]);

    const fetched = await fetch(response.headers.get('location') as string, authed());
    expect(await fetched.json()).toEqual(pet);
  });

  it('gives a pet created without status the status available', async () => {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore());
    const response = await fetch(`${baseUrl}/pets`, postJson({ name: 'Tom', categoryId: 2 }));
    expect(DEFAULT_NEW_PET_STATUS).toBe('available');
    expect(await response.json()).toEqual({ id: 1, name: 'Tom', categoryId: 2, status: 'available' });
  });

  it('accepts a charset parameter on the content type', async () => {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore());
    const response = await fetch(
      `${baseUrl}/pets`,
      authed({
        method: 'POST',
        headers: { 'Content-Type': 'application/json; charset=utf-8' },
        body: '{"name":"Tom","categoryId":2}',
      }),
    );
    expect(response.status).toBe(201);
  });

  it('never repeats an id: past Number.MAX_SAFE_INTEGER a create is a 507 and nothing is added', async () => {
    const max = { id: Number.MAX_SAFE_INTEGER - 1, name: 'Max', categoryId: 1 };
    const store = createFakePetStore({ pets: [max] });
    const { baseUrl, fetch } = await transport.serve(store);
    const last = await fetch(`${baseUrl}/pets`, postJson({ name: 'Last', categoryId: 1 }));
    expect(await last.json()).toMatchObject({ id: Number.MAX_SAFE_INTEGER, name: 'Last' });
    for (const name of ['One', 'Two']) {
      const body = await expectError(
        await fetch(`${baseUrl}/pets`, postJson({ name, categoryId: 1 })),
        507,
        'ids_exhausted',
      );
      expect(body.message).toContain('ids would pass 9007199254740991 (Number.MAX_SAFE_INTEGER)');
    }
    expect(store.pets.map((pet) => pet.id)).toEqual([Number.MAX_SAFE_INTEGER - 1, Number.MAX_SAFE_INTEGER]);
    store.reset();
    expect((await fetch(`${baseUrl}/pets`, postJson({ name: 'Again', categoryId: 1 }))).status).toBe(201);
  });

  it('refuses to be seeded with an id beyond Number.MAX_SAFE_INTEGER', async () => {
    const store = createFakePetStore();
    expect(() => store.setPets([{ id: Number.MAX_SAFE_INTEGER + 1, name: 'Big', categoryId: 1 }])).toThrow(
      /pets\[0\] is not a valid Pet: id: /,
    );
    expect(() => createFakePetStore({ pets: [{ id: 2 ** 60, name: 'Big', categoryId: 1 }] })).toThrow(
      TypeError,
    );
  });

  it('never loses or duplicates a pet under concurrent creates', async () => {
    const store = createFakePetStore({ apiKeys: { k: 'business' } });
    const { baseUrl, fetch } = await transport.serve(store);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        fetch(`${baseUrl}/pets`, postJson({ name: `Pet ${i}`, categoryId: i }, 'k')),
      ),
    );
    const created = await Promise.all(
      responses.map(async (response) => PetSchema.parse(await response.json())),
    );
    const ids = created.map((pet) => pet.id);
    expect(new Set(ids).size).toBe(40);
    expect(store.pets.map((pet) => pet.id)).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(store.pets.map((pet) => pet.name)).size).toBe(40);
  });

  it.each([
    ['malformed JSON', '{"name": "Tom",', 'invalid_json', /not valid JSON/],
    ['an empty body', '', 'invalid_body', /required/],
    ['a missing name', '{"categoryId":1}', 'invalid_body', /name is required/],
    ['a missing categoryId', '{"name":"Tom"}', 'invalid_body', /categoryId is required/],
    ['a mistyped name', '{"name":5,"categoryId":1}', 'invalid_body', /name: .*expected string/],
    ['a fractional categoryId', '{"name":"Tom","categoryId":1.5}', 'invalid_body', /categoryId: .*int/],
    ['a categoryId as a string', '{"name":"Tom","categoryId":"1"}', 'invalid_body', /categoryId: /],
    [
      'an unknown status',
      '{"name":"Tom","categoryId":1,"status":"lost"}',
      'invalid_body',
      /status: .*available/,
    ],
    ['an unknown field', '{"name":"Tom","categoryId":1,"stauts":"sold"}', 'invalid_body', /stauts/],
    ['an array', '[]', 'invalid_body', /expected object/],
    ['null', 'null', 'invalid_body', /expected object/],
  ])('answers %s with a 400 naming the problem', async (_name, body, code, message) => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    const response = await fetch(
      `${baseUrl}/pets`,
      authed({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
    );
    const error = await expectError(response, 400, code);
    expect(error.message).toMatch(message);
    expect(store.pets).toEqual([]);
  });

  it('lists every problem of the body', async () => {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore());
    const error = await expectError(
      await fetch(`${baseUrl}/pets`, postJson({ status: 'lost' })),
      400,
      'invalid_body',
    );
    expect(error.message).toMatch(/name is required.*categoryId is required.*status: /);
  });

  it.each([
    ['text/plain', { 'Content-Type': 'text/plain' }],
    ['form data', { 'Content-Type': 'application/x-www-form-urlencoded' }],
    ['no content type', {}],
  ])('answers a body sent as %s with a 400', async (_name, headers) => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    const body = new TextEncoder().encode('{"name":"Tom","categoryId":1}');
    const response = await fetch(`${baseUrl}/pets`, authed({ method: 'POST', headers, body }));
    const error = await expectError(response, 400, 'invalid_content_type');
    expect(error.message).toContain('application/json');
    expect(store.pets).toEqual([]);
  });
});
