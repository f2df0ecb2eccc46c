/**
 * Headers a caller adds: taken as a `Headers`, an array of pairs or an object, client-wide and per
 * call; a name or value `fetch` would refuse is a validation error before anything is sent.
 */
import { describe, expect, it } from 'vitest';
import type { HeadersInput } from '../../src/core/types.js';
import { PetStoreClient, PetStoreError, RequestValidationError } from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

describe('headers', () => {
  it.each([
    ['an object', { 'X-Tenant': 'acme' }],
    ['an array of pairs', [['X-Tenant', 'acme']]],
    ['a Headers', new Headers({ 'X-Tenant': 'acme' })],
    ['a Map, as fetch takes it', new Map([['X-Tenant', 'acme']])],
  ])('given as %s, are sent client-wide and per call', async (_, headers) => {
    const { client, store } = setup({ headers: headers as HeadersInput });
    await client.listPets();
    await client.request({ method: 'GET', path: '/pets', headers: [['X-Call', 'one']] });
    await setup().client.listPets({}, { headers: headers as HeadersInput });
    expect(store.requests.map((request) => request.headers['x-tenant'])).toEqual(['acme', 'acme']);
    expect(store.requests[1]?.headers['x-call']).toBe('one');
  });

  it('per call as a Headers reach the service (they were once dropped in silence)', async () => {
    const { client, store } = setup();
    await client.listPets({}, { headers: new Headers({ 'X-Trace': 't-1' }) });
    expect(store.requests[0]?.headers['x-trace']).toBe('t-1');
  });

  it.each([
    ['a number', 42],
    ['a string', 'X-Tenant: acme'],
    ['a pair of three', [['X-Tenant', 'acme', 'x']]],
    ['a pair whose name is not a string', [[1, 'acme']]],
  ])('of another type, such as %s, are refused before sending', async (_, headers) => {
    const { client, store } = setup();
    await expect(client.listPets({}, { headers } as object)).rejects.toThrow(RequestValidationError);
    await expect(client.request({ method: 'GET', path: '/pets', headers } as never)).rejects.toThrow(
      RequestValidationError,
    );
    expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, headers } as never)).toThrow(
      /headers/,
    );
    expect(store.requests).toHaveLength(0);
  });

  it.each([
    ['\\x01', 'a\x01b'],
    ['\\x0b', 'a\x0bb'],
    ['DEL', 'a\x7fb'],
    ['a character beyond Latin-1', 'Ā'],
  ])('with %s in a value is a RequestValidationError, with no attempt and no retry', async (_, value) => {
    const { client, store } = setup();
    const error = await client.listPets({}, { headers: [['X-Note', value]] }).catch((caught) => caught);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.message).toMatch(/Header "X-Note" must be Latin-1 text without control characters/);
    expect(store.requests).toHaveLength(0);
  });

  it('with an invalid token character in a name is refused', async () => {
    const { client, store } = setup();
    await expect(client.listPets({}, { headers: new Headers([['X-A', 'b']]) })).resolves.toBeDefined();
    await expect(client.listPets({}, { headers: [['X(A)', 'b']] })).rejects.toThrow(
      /not a valid header name/,
    );
    expect(store.requests).toHaveLength(1);
  });

  it('an API key with a control character is refused when the client is made, and when a key function returns one', async () => {
    expect(() => new PetStoreClient({ apiKey: 'sk\x01x', baseUrl: BASE_URL })).toThrow(/control characters/);
    const { client, store } = setup({ apiKey: () => 'sk\x0bx' });
    const error = await client.listPets().catch((caught) => caught);
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error.message).toMatch(/control characters.*; nothing was sent/);
    expect(store.requests).toHaveLength(0);
  });
});
