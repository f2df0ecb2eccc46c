import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ClientOptions, PetStoreClient } from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** The error constructing a client with `options` throws, built as JavaScript would (no type check). */
function refusal(options: Record<string, unknown>): unknown {
  try {
    new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, ...options } as ClientOptions);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('client options are checked by name', () => {
  it.each([
    ['baseURL', 'baseUrl'],
    ['base_url', 'baseUrl'],
    ['defaultHeaders', 'headers'],
    ['maxRetry', 'maxRetries'],
    ['retry', 'maxRetries'],
    ['timeoutMs', 'timeout'],
    ['timout', 'timeout'],
    ['token', 'apiKey'],
    ['loglevel', 'logLevel'],
    ['dangerouslyAllowBrowsr', 'dangerouslyAllowBrowser'],
  ])('refuses "%s" with a TypeError suggesting "%s"', (given, meant) => {
    const error = refusal({ [given]: 1 });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toBe(
      `Unknown PetStoreClient option "${given}": did you mean "${meant}"?`,
    );
  });

  it('lists the known names when none is close', () => {
    const error = refusal({ frobnicate: true });
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /^Unknown PetStoreClient option "frobnicate": expected one of apiKey, baseUrl, headers, maxRetries, .*onWait/,
    );
  });

  it('refuses a misspelled baseUrl even where PETSTORE_BASE_URL would stand in for it', () => {
    vi.stubEnv('PETSTORE_BASE_URL', 'http://elsewhere.test/v1');
    const options = { apiKey: API_KEY, baseURL: 'http://127.0.0.1:4010/v1' };
    expect(() => new PetStoreClient(options as ClientOptions)).toThrow(
      new TypeError('Unknown PetStoreClient option "baseURL": did you mean "baseUrl"?'),
    );
  });

  it('refuses a name that reaches the client through a spread, which TypeScript lets pass', () => {
    const shared = { maxRetry: 5 };
    const options: ClientOptions = { apiKey: API_KEY, baseUrl: BASE_URL };
    expect(() => new PetStoreClient({ ...options, ...shared })).toThrow(/did you mean "maxRetries"/);
  });

  it('takes every documented option', () => {
    const { client } = setup({
      maxRetries: 1,
      timeout: 1_000,
      maxRetryAfter: 1_000,
      headers: { 'X-Team': 'pets' },
      logLevel: 'warn',
      deprecationWarnings: false,
      pacing: true,
      dangerouslyAllowBrowser: false,
      fetchOptions: {},
      onWait: () => {},
      rateLimitStore: undefined,
    });
    expect(client.baseUrl).toBe(`${BASE_URL}/`);
  });
});
