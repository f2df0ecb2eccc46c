import { describe, expect, it } from 'vitest';
import { AuthenticationError, BadRequestError, InternalServerError } from '../../src/index.js';
import { API_KEY } from '../client/setup.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';

useFaultHarness();

describe('a service that echoes the API key back', () => {
  it('in the message of its Error body: the AuthenticationError does not repeat it', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({
      status: 401,
      body: { code: 'unauthorized', message: `API key ${API_KEY} is not valid`, status: 401 },
    });
    const { error } = await settle(client.listPets());
    expect(error).toBeInstanceOf(AuthenticationError);
    expectKeyHidden(error, logger);
  });

  it('in a plain-text body: the BadRequestError does not repeat it', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ status: 400, body: `Rejected header Authorization: Bearer ${API_KEY}` });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(error).toBeInstanceOf(BadRequestError);
    expectKeyHidden(error, logger);
  });

  it('in a response header: the InternalServerError does not repeat it', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({ status: 500, headers: { 'X-Debug-Authorization': `Bearer ${API_KEY}` } });
    const { error } = await settle(client.createPet({ name: 'Rex', categoryId: 1 }));
    expect(error).toBeInstanceOf(InternalServerError);
    expectKeyHidden(error, logger);
  });

  it('in the Link of a deprecation notice: the warning does not repeat it', async () => {
    const { client, store, logger } = faultSetup();
    store.injectFault({
      status: 200,
      body: [],
      headers: {
        Deprecation: '@1767225600',
        Link: `<https://example.test/docs?key=${API_KEY}>; rel="deprecation"`,
      },
    });
    const { error } = await settle(client.listPets());
    expect(error).toBeUndefined();
    expect(logger.warn).toHaveBeenCalledOnce();
    expectKeyHidden(error, logger);
  });
});
