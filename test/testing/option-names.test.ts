import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/testing/cli/cli-args.js';
import {
  connectFakePetStore,
  createFakePetStore,
  type FakePetStoreOptions,
  type ListenOptions,
} from '../../src/testing/index.js';

describe("the fake's options are checked by name", () => {
  it('createFakePetStore refuses an unknown name with a TypeError naming the closest known one', () => {
    expect(() => createFakePetStore({ baseURL: 'http://pets.test/v1' } as FakePetStoreOptions)).toThrow(
      new TypeError('Unknown createFakePetStore option "baseURL": did you mean "baseUrl"?'),
    );
    expect(() => createFakePetStore({ apiKey: 'k' } as FakePetStoreOptions)).toThrow(
      /Unknown createFakePetStore option "apiKey": did you mean "apiKeys"\?/,
    );
  });

  it('createFakePetStore lists its options when no name is close', () => {
    expect(() => createFakePetStore({ shuffle: true } as FakePetStoreOptions)).toThrow(
      /^Unknown createFakePetStore option "shuffle": expected one of baseUrl, apiKeys, proxyKey, pets, now, ban/,
    );
  });

  it('listen() rejects an unknown name, its control options included, before any server starts', async () => {
    const store = createFakePetStore();
    await expect(store.listen({ host: '127.0.0.1' } as ListenOptions)).rejects.toThrow(
      new TypeError('Unknown listen() option "host": did you mean "hostname"?'),
    );
    await expect(store.listen({ control: { tokn: 'secret' } } as ListenOptions)).rejects.toThrow(
      new TypeError('Unknown listen() control option "tokn": did you mean "token"?'),
    );
  });

  it('connectFakePetStore refuses an unknown name', () => {
    expect(() => connectFakePetStore('http://127.0.0.1:4010/v1', { controlToken: 'x' } as never)).toThrow(
      new TypeError('Unknown connectFakePetStore option "controlToken": did you mean "token"?'),
    );
  });

  it('the command names the option a mistyped one most likely meant', () => {
    expect(() => parseCliArgs(['--prot', '4010'])).toThrow('unknown option --prot; did you mean --port?');
    expect(() => parseCliArgs(['--max_body=10'])).toThrow(
      'unknown option --max_body; did you mean --max-body?',
    );
  });
});
