/**
 * The service's request id, wherever a user looks for it: the result of withResponse(), every
 * APIError, and the debug line of each attempt.
 */
import { describe, expect, it, vi } from 'vitest';
import { type APIError, BadRequestError, type Fetch, NotFoundError } from '../../src/index.js';
import { API_KEY, setup } from './setup.js';

/** The store's answers, their `X-Request-Id` renamed (or dropped, for `null`). */
function renamingFetch(fetch: Fetch, header: string | null): Fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    const headers = new Headers(response.headers);
    const id = headers.get('x-request-id');
    headers.delete('x-request-id');
    if (header !== null && id !== null) headers.set(header, id);
    return new Response(await response.arrayBuffer(), { status: response.status, headers });
  };
}

describe('requestId', () => {
  it('is on withResponse() and on an APIError: the X-Request-Id the store sent and recorded', async () => {
    const { client, store } = setup();
    const { requestId } = await client.listPets().withResponse();
    store.injectFault({ status: 400, body: { code: 'invalid_body', message: 'No.', status: 400 } });
    const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((failure: unknown) => failure);

    expect(requestId).toMatch(/^req_/);
    expect(requestId).toBe(store.requests[0]?.requestId);
    expect(error).toBeInstanceOf(BadRequestError);
    expect((error as BadRequestError).requestId).toBe(store.requests[1]?.requestId);
    expect((error as BadRequestError).toJSON()).toMatchObject({ requestId: store.requests[1]?.requestId });
  });

  it('is read from Request-Id when the service names it so', async () => {
    const { store } = setup();
    const { client } = setup({ fetch: renamingFetch(store.fetch, 'Request-Id') });

    const { requestId } = await client.listPets().withResponse();

    expect(requestId).toBe(store.requests[0]?.requestId);
  });

  it('is undefined when the service sends none', async () => {
    const { store } = setup({ deprecationWarnings: false });
    const { client } = setup({ fetch: renamingFetch(store.fetch, null), deprecationWarnings: false });

    const { requestId } = await client.listPets().withResponse();
    const error = await client.getPet(1).catch((failure: unknown) => failure);

    expect(requestId).toBeUndefined();
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).requestId).toBeUndefined();
    expect(JSON.parse(JSON.stringify(error))).not.toHaveProperty('requestId');
  });

  it('is in the debug line of each attempt', async () => {
    const debug = vi.fn<(message: string) => void>();
    const { client, store } = setup({ logLevel: 'debug', logger: { warn: vi.fn(), debug } });

    await client.listPets();

    const id = store.requests[0]?.requestId;
    expect(debug.mock.calls.map(([line]) => line)).toEqual([
      expect.stringMatching(
        new RegExp(`^animal-store-sdk: GET /pets -> 200 in \\d+ ms \\(attempt 1, request id ${id}\\)$`),
      ),
    ]);
  });

  it('never carries the API key, should the service echo it as the id', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 200, body: [], headers: { 'X-Request-Id': `id-for-${API_KEY}` } });
    store.injectFault({ status: 400, headers: { 'X-Request-Id': API_KEY } });

    const { requestId } = await client.listPets().withResponse();
    const error = await client.listPets().catch((failure: unknown) => failure);

    expect(requestId).toBe('id-for-[redacted]');
    expect((error as APIError).requestId).toBe('[redacted]');
  });
});
