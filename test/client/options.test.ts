import { afterEach, describe, expect, it, vi } from 'vitest';
import { PetStoreClient, PetStoreError } from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('constructing a client', () => {
  it('reads the API key and base URL from the environment', async () => {
    const { store } = setup();
    vi.stubEnv('PETSTORE_API_KEY', API_KEY);
    vi.stubEnv('PETSTORE_BASE_URL', BASE_URL);
    const client = new PetStoreClient({ fetch: store.fetch });
    expect(client.baseUrl).toBe(`${BASE_URL}/`);
    await expect(client.listPets()).resolves.toEqual([]);
  });

  it('fails clearly without an API key', () => {
    vi.stubEnv('PETSTORE_API_KEY', '');
    expect(() => new PetStoreClient({ baseUrl: BASE_URL })).toThrow(PetStoreError);
    expect(() => new PetStoreClient({ baseUrl: BASE_URL })).toThrow(/PETSTORE_API_KEY/);
  });

  it('fails clearly without a base URL', () => {
    vi.stubEnv('PETSTORE_BASE_URL', '');
    expect(() => new PetStoreClient({ apiKey: API_KEY })).toThrow(/PETSTORE_BASE_URL/);
  });

  it.each([
    'animal-store.test/v1',
    'ftp://animal-store.test/v1',
    'http://animal-store.test/v2',
    'http://animal-store.test/',
    'http://animal-store.test/v1?x=1',
  ])('rejects the base URL %s', (baseUrl) => {
    expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl })).toThrow(/baseUrl must/);
  });

  it('accepts a trailing slash and a path before /v1', () => {
    expect(new PetStoreClient({ apiKey: API_KEY, baseUrl: 'https://x.test/staging/v1/' }).baseUrl).toBe(
      'https://x.test/staging/v1/',
    );
  });

  it.each([
    { maxRetries: -1 },
    { maxRetries: 1.5 },
    { timeout: 0 },
    { timeout: Number.POSITIVE_INFINITY },
    { maxRetryAfter: -5 },
    { maxQueueWait: -5 },
    { pacingBurst: 0 },
    { pacingBurst: 1.5 },
    { pacingBurst: Number.NaN },
  ])('rejects the numeric option %o', (options) => {
    expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, ...options })).toThrow(
      PetStoreError,
    );
  });

  it('says what pacingBurst takes', () => {
    expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, pacingBurst: 2 })).toThrow(
      /pacingBurst.*Expected a number above 0 and at most 1/,
    );
  });

  it('says what an option of the wrong kind was given', () => {
    const given = { apiKey: API_KEY, baseUrl: BASE_URL, pacing: 'yes', maxRetries: '3', timeout: 1.5 };
    expect(() => new PetStoreClient(given as never)).toThrow(
      'Invalid PetStoreClient options: maxRetries: Invalid input: expected number, received string; ' +
        'timeout: Invalid input: expected int, received number; ' +
        'pacing: Invalid input: expected boolean, received string.',
    );
  });

  it('reports a bad base URL and PETSTORE_LOG with the other invalid options, in one error', () => {
    vi.stubEnv('PETSTORE_LOG', 'loud');
    const given = { apiKey: API_KEY, baseUrl: 'ftp://animal-store.test/v1', maxRetries: -1 };
    expect(() => new PetStoreClient(given)).toThrow(
      'Invalid PetStoreClient options: baseUrl must be an absolute http(s) URL ending in /v1, without ' +
        'credentials, query or fragment; got "ftp://animal-store.test/v1"; ' +
        'maxRetries: Too small: expected number to be >=0; ' +
        'PETSTORE_LOG: Invalid option: expected one of "off"|"error"|"warn"|"info"|"debug".',
    );
  });

  it('keeps the API key out of the client when it is logged or serialized', async () => {
    const { inspect } = await import('node:util');
    const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL });
    expect(inspect(client, { depth: 10, showHidden: true })).not.toContain(API_KEY);
    expect(JSON.stringify(client)).not.toContain(API_KEY);
  });
});
