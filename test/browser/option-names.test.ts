import { expect, it } from 'vitest';
import { type ClientOptions, PetStoreClient } from '../../src/index.js';

it('refuses an unknown option name in a page too, listing the known names instead of guessing', () => {
  const options = { apiKey: null, baseURL: 'https://api.animal-store.test/v1' } as ClientOptions;
  expect(() => new PetStoreClient(options)).toThrow(TypeError);
  expect(() => new PetStoreClient(options)).toThrow(
    /^Unknown PetStoreClient option "baseURL": expected one of apiKey, baseUrl, headers, maxRetries, /,
  );
});
