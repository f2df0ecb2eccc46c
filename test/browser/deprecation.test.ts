import { expect, it } from 'vitest';
import { API_KEY, browserClient, serveStoreThroughWorker } from './support/store-worker.js';

serveStoreThroughWorker();

it('warns once through the logger that getPet is deprecated, and still reads the pet', async () => {
  const { client, logger } = browserClient();
  const { data, response } = await client.getPet(1).withResponse();
  expect(data.name).toBe('Rex');
  expect(response.headers.get('deprecation')).toBe('@1767225600');

  expect(logger.warn).toHaveBeenCalledTimes(1);
  const [message] = logger.warn.mock.calls[0] ?? [];
  expect(message).toMatch(/getPet is deprecated .* 2030-12-05/);
  expect(message).toContain('listPets');
  expect(message).not.toContain(API_KEY);

  await client.getPet(2);
  expect(logger.warn).toHaveBeenCalledTimes(1);
});
