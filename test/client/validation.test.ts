import { describe, expect, it } from 'vitest';
import { type ListPetsParams, type NewPet, RequestValidationError } from '../../src/index.js';
import { setup } from './setup.js';

const badListParams: [string, unknown][] = [
  ['limit 0', { limit: 0 }],
  ['limit 101', { limit: 101 }],
  ['a fractional limit', { limit: 2.5 }],
  ['a string limit', { limit: '10' }],
  ['an unknown status', { status: 'lost' }],
  ['an unknown parameter', { offset: 20 }],
  ['not an object', 'available'],
];

const badPets: [string, unknown][] = [
  ['no name', { categoryId: 1 }],
  ['no categoryId', { name: 'Rex' }],
  ['a numeric name', { name: 7, categoryId: 1 }],
  ['a fractional categoryId', { name: 'Rex', categoryId: 1.5 }],
  ['a categoryId beyond 2^53', { name: 'Rex', categoryId: 2 ** 53 }],
  ['an unknown status', { name: 'Rex', categoryId: 1, status: 'lost' }],
  ['a misspelt field', { name: 'Rex', categoryId: 1, stauts: 'sold' }],
  ['null', null],
];

const badIds: [string, unknown][] = [
  ['a fraction', 1.5],
  ['a string', '1'],
  ['NaN', Number.NaN],
  ['beyond 2^53', 2 ** 60],
];

describe('input validation happens before anything is sent', () => {
  it.each(badListParams)('listPets rejects %s', async (_, params) => {
    const { client, store } = setup();
    const error = await client.listPets(params as ListPetsParams).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as RequestValidationError).issues.length).toBeGreaterThan(0);
    expect((error as Error).message).toMatch(/^Invalid params for listPets: /);
    expect(store.requests).toHaveLength(0);
  });

  it.each(badPets)('createPet rejects %s', async (_, pet) => {
    const { client, store } = setup();
    await expect(client.createPet(pet as NewPet)).rejects.toBeInstanceOf(RequestValidationError);
    expect(store.requests).toHaveLength(0);
    expect(store.pets).toHaveLength(0);
  });

  it.each(badIds)('getPet rejects %s', async (_, id) => {
    const { client, store } = setup({ deprecationWarnings: false });
    await expect(client.getPet(id as number)).rejects.toBeInstanceOf(RequestValidationError);
    expect(store.requests).toHaveLength(0);
  });

  it.each([
    ['a zero timeout', { timeout: 0 }],
    ['a negative maxRetries', { maxRetries: -1 }],
    ['a header with a line break', { headers: { 'X-Evil': 'a\r\nb' } }],
    ['an invalid header name', { headers: { 'bad header': 'x' } }],
  ])('rejects per-call options with %s', async (_, options) => {
    const { client, store } = setup();
    await expect(client.listPets({}, options as object)).rejects.toBeInstanceOf(RequestValidationError);
    expect(store.requests).toHaveLength(0);
  });

  it('rejects a per-call option of an unknown name with a TypeError naming the closest known one', async () => {
    const { client, store } = setup();
    const error = await client.listPets({}, { timeoutMs: 5 } as object).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe('Unknown request option "timeoutMs": did you mean "timeout"?');
    expect(store.requests).toHaveLength(0);
  });

  it('names the offending field in the message', async () => {
    const { client } = setup();
    await expect(client.listPets({ limit: 500 })).rejects.toThrow(/limit: Too big/);
    await expect(client.createPet({ name: 'Rex' } as NewPet)).rejects.toThrow(/categoryId/);
  });

  it('says what is wrong with the whole value in plain words, without a path', async () => {
    const { client } = setup();
    const pet = { name: 'Rex', categoryId: 1, stauts: 'sold' } as NewPet;
    await expect(client.createPet(pet)).rejects.toThrow(
      'Invalid pet for createPet: Unrecognized key: "stauts"',
    );
    await expect(client.getPet(1.5)).rejects.toThrow(
      'Invalid petId for getPet: Invalid input: expected int, received number',
    );
  });
});
