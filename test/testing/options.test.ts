import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Pet } from '../../src/schemas.js';
import { createFakePetStore, type FakePetStoreOptions, samplePets } from '../../src/testing/index.js';
import { DEFAULT_BASE_URL } from '../../src/testing/store/base-url.js';
import { DEFAULT_API_KEY, DEFAULT_API_KEYS } from '../../src/testing/store/fake-store.js';

describe('createFakePetStore options', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('defaults to the .test base URL and one Free key', () => {
    expect(DEFAULT_BASE_URL).toBe('http://animal-store.test/v1');
    expect(DEFAULT_API_KEY).toBe('test-api-key');
    expect(DEFAULT_API_KEYS).toEqual({ 'test-api-key': 'free' });
    expect(createFakePetStore().baseUrl).toBe(DEFAULT_BASE_URL);
    expect(createFakePetStore().pets).toEqual([]);
  });

  it.each([
    ['http://animal-store.test/v1/', 'http://animal-store.test/v1'],
    [new URL('https://api.example.com:8443/animal-store/v1'), 'https://api.example.com:8443/animal-store/v1'],
  ])('accepts the base URL %s', (baseUrl, expected) => {
    expect(createFakePetStore({ baseUrl }).baseUrl).toBe(expected);
  });

  it.each([
    'http://animal-store.test',
    'http://animal-store.test/v2',
    'http://animal-store.test/v1/pets',
    'http://animal-store.test/api/v10',
    'http://animal-store.test/v1?x=1',
    'ftp://animal-store.test/v1',
    '/v1',
    'not a url',
  ])('rejects the base URL %s with a clear error', (baseUrl) => {
    expect(() => createFakePetStore({ baseUrl })).toThrow(
      /baseUrl must be an absolute http\(s\) URL ending in \/v1/,
    );
  });

  it.each<[string, FakePetStoreOptions, RegExp]>([
    ['an unknown plan', { apiKeys: { k: 'gold' as 'free' } }, /unknown plan "gold"/],
    ['zero limits', { apiKeys: { k: { perMinute: 0, perDay: 10 } } }, /perMinute must be a positive integer/],
    [
      'fractional limits',
      { apiKeys: { k: { perMinute: 1, perDay: 1.5 } } },
      /perDay must be a positive integer/,
    ],
    ['a key with a space', { apiKeys: { 'a key': 'free' } }, /without spaces/],
    ['an invalid pet', { pets: [{ id: 1, name: 'Rex' } as Pet] }, /pets\[0\] is not a valid Pet: categoryId/],
    ['a fractional pet id', { pets: [{ id: 1.5, name: 'Rex', categoryId: 1 }] }, /pets\[0\]/],
    [
      'two pets with one id',
      {
        pets: [
          { id: 1, name: 'Rex', categoryId: 1 },
          { id: 1, name: 'Tom', categoryId: 1 },
        ],
      },
      /share the id 1/,
    ],
    ['a negative ban threshold', { ban: { maxRequestsWhileLimited: -1 } }, /maxRequestsWhileLimited/],
    ['a zero ban length', { ban: { duration: 0 } }, /duration/],
  ])('rejects %s', (_name, options, message) => {
    expect(() => createFakePetStore(options)).toThrow(message);
  });

  it('reads the default clock at each request, so it follows fake timers', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.UTC(2031, 5, 1));
    const store = createFakePetStore();
    const init = { headers: { Authorization: `Bearer ${DEFAULT_API_KEY}` } };
    const first = await store.fetch(`${store.baseUrl}/pets`, init);
    expect(first.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2031, 5, 1) / 1000 + 60));
    vi.setSystemTime(Date.UTC(2031, 5, 1, 0, 1));
    const second = await store.fetch(`${store.baseUrl}/pets`, init);
    expect(second.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(second.headers.get('x-ratelimit-reset')).toBe(String(Date.UTC(2031, 5, 1, 0, 1) / 1000 + 60));
    expect(store.requests[1]?.receivedAt).toBe(Date.UTC(2031, 5, 1, 0, 1));
  });

  it('continues ids after the highest initial id', async () => {
    const store = createFakePetStore({
      pets: [
        { id: 41, name: 'Rex', categoryId: 1 },
        { id: 3, name: 'Tom', categoryId: 1 },
      ],
    });
    const response = await store.fetch(`${store.baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${DEFAULT_API_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Kit', categoryId: 2 }),
    });
    expect(await response.json()).toMatchObject({ id: 42 });
    expect(store.pets.map((pet) => pet.id)).toEqual([3, 41, 42]);
  });
});

describe('samplePets', () => {
  it('makes the same valid pets every time, with ids from 1', () => {
    const pets = samplePets(12);
    expect(pets).toEqual(samplePets(12));
    expect(pets.map((pet) => pet.id)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
    expect(pets.slice(0, 3)).toEqual([
      { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
      { id: 2, name: 'Bella', categoryId: 2, status: 'pending' },
      { id: 3, name: 'Milo', categoryId: 3, status: 'sold' },
    ]);
    expect(pets[10]?.name).toBe('Rex 2');
    expect(createFakePetStore({ pets }).pets).toEqual(pets);
  });

  it.each([-1, 1.5, 100_001])('rejects the count %s', (count) => {
    expect(() => samplePets(count)).toThrow(RangeError);
  });
});
