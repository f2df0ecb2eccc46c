import { afterEach, expect, it } from 'vitest';
import { APIConnectionError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { useFaultHarness } from './support/harness.js';
import { httpClient } from './support/http-client.js';
import { expectKeyHidden } from './support/leaks.js';
import { listPets } from './support/operations.js';
import { dropMidBody, startServer, type TestServer } from './support/servers.js';

useFaultHarness();

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

it('retries a listPets whose response body was cut off, like any other lost connection', async () => {
  server = await startServer(dropMidBody);
  const { client, logger } = httpClient(server.url);
  const { error } = await settle(listPets.call(client));
  expect(error).toBeInstanceOf(APIConnectionError);
  expect(server.hits()).toBe(3);
  expectKeyHidden(error, logger);
});
