import { beforeEach, describe, expect, it, vi } from 'vitest';

// Deprecation warnings are once per process: each test loads a fresh copy of the package.
async function load() {
  vi.resetModules();
  const [{ PetStoreClient }, setupModule] = await Promise.all([
    import('../../src/index.js'),
    import('./setup.js'),
  ]);
  return { PetStoreClient, ...setupModule };
}

describe('deprecation warnings', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('warns once per process on the first getPet, naming the date and the replacement', async () => {
    const { setup } = await load();
    const { client, logger } = setup();
    const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.getPet(pet.id);
    await client.getPet(pet.id);
    const second = setup({ logger }).client;
    await second.getPet(pet.id).catch(() => undefined);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    const [message] = logger.warn.mock.calls[0] ?? [];
    expect(message).toMatch(/getPet/);
    expect(message).toMatch(/2030-12-05/);
    expect(message).toMatch(/listPets/);
  });

  it('is silenced by deprecationWarnings: false', async () => {
    const { setup } = await load();
    const { client, logger } = setup({ deprecationWarnings: false });
    const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
    await client.getPet(pet.id);
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('warns once per operation when the service sends Deprecation or Sunset headers', async () => {
    const { setup } = await load();
    const { client, logger, store } = setup();
    store.injectFault({
      match: { method: 'GET', path: '/pets' },
      times: 3,
      status: 200,
      body: '[]',
      headers: {
        'content-type': 'application/json',
        deprecation: '@1893456000',
        sunset: 'Tue, 01 Jan 2030 00:00:00 GMT',
      },
    });
    await client.listPets();
    await client.listPets();
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(
      /listPets.*Deprecation: @1893456000.*Sunset: Tue, 01 Jan 2030/,
    );
  });

  it('stays silent for responses without those headers', async () => {
    const { setup } = await load();
    const { client, logger } = setup();
    await client.listPets();
    await client.createPet({ name: 'Rex', categoryId: 1 });
    expect(logger.warn).not.toHaveBeenCalled();
  });
});
