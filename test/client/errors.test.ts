import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { generateAPIError } from '../../src/errors.js';
import {
  APIConnectionError,
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PetStoreClient,
  PetStoreError,
  RateLimitError,
  RefusedError,
  ResponseValidationError,
  UnprocessableEntityError,
} from '../../src/index.js';
import { API_KEY, BASE_URL, setup } from './setup.js';

function expectNoKey(error: unknown) {
  const err = error as Error;
  for (const text of [
    err.message,
    String(err.stack),
    String(err),
    JSON.stringify(err),
    inspect(err, { depth: 10 }),
  ]) {
    expect(text).not.toContain(API_KEY);
  }
}

describe('failed responses become typed errors', () => {
  it('maps a 404 to NotFoundError with the Error body', async () => {
    const { client } = setup({ deprecationWarnings: false });
    const error = await client.getPet(999).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(PetStoreError);
    const apiError = error as NotFoundError;
    expect(apiError.status).toBe(404);
    expect(apiError.body).toMatchObject({ status: 404, code: apiError.code, message: apiError.message });
    expect(apiError.rateLimit).not.toBeNull();
    expect(apiError.headers.get('content-type')).toContain('application/json');
    expectNoKey(error);
  });

  it('maps a 401 to AuthenticationError without leaking the key', async () => {
    const { store } = setup();
    const client = new PetStoreClient({ apiKey: `${API_KEY}-wrong`, baseUrl: BASE_URL, fetch: store.fetch });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as AuthenticationError).status).toBe(401);
    expectNoKey(error);
    expect(JSON.stringify(error)).not.toContain(`${API_KEY}-wrong`);
  });

  it('maps a 400 from the service to BadRequestError', async () => {
    const { client, store } = setup();
    store.injectFault({
      match: { method: 'POST', path: '/pets' },
      status: 400,
      body: JSON.stringify({ code: 'invalid_body', message: 'name is too long', status: 400 }),
      headers: { 'content-type': 'application/json' },
    });
    const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ code: 'invalid_body', message: 'name is too long' });
  });

  it('keeps the right class and the raw body when the error body is not the Error shape', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({
      status: 502,
      body: '<html>Bad gateway</html>',
      headers: { 'content-type': 'text/html' },
    });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 502, code: 'http_502', body: '<html>Bad gateway</html>' });
  });

  it.each([
    [403, 'forbidden', PermissionDeniedError],
    [409, 'conflict', ConflictError],
    [422, 'unprocessable', UnprocessableEntityError],
  ] as const)('maps a %i to its own class, an APIError', async (status, code, ErrorClass) => {
    const { client, store } = setup();
    store.injectFault({ status, body: { code, message: 'No', status } });
    const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ErrorClass);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ name: ErrorClass.name, status, code, message: 'No' });
    expect(
      generateAPIError({ status, headers: new Headers(), body: undefined, rateLimit: null }),
    ).toBeInstanceOf(ErrorClass);
  });

  it('gives a plain APIError for statuses without a class of their own', async () => {
    const { client, store } = setup();
    store.injectFault({
      status: 418,
      body: { code: 'teapot', message: 'Short and stout', status: 418 },
    });
    const error = await client.createPet({ name: 'Rex', categoryId: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).name).toBe('APIError');
    expect(error).toMatchObject({ status: 418, code: 'teapot' });
  });

  it('maps a 429 that outlasts the retries to RateLimitError with retryAfterMs', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({ status: 429, headers: { 'retry-after': '2' } });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(2000);
  });

  it('maps a network failure to APIConnectionError', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({ networkError: true });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIConnectionError);
    expectNoKey(error);
  });
});

describe('successful responses are parsed with the schemas', () => {
  it.each([
    ['a wrong shape', JSON.stringify({ pets: [] }), { pets: [] }],
    [
      'an id beyond 2^53',
      '[{"id":9007199254740993,"name":"Rex","categoryId":1}]',
      [{ id: 9007199254740992, name: 'Rex', categoryId: 1 }],
    ],
    ['malformed JSON', '[{"id":1,', '[{"id":1,'],
    ['an empty body', '', ''],
    ['an HTML page', '<html>hi</html>', '<html>hi</html>'],
  ])('rejects %s with ResponseValidationError carrying the raw body', async (_, body, raw) => {
    const { client, store } = setup();
    store.injectFault({ status: 200, body, headers: { 'content-type': 'application/json' } });
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toEqual(raw);
    expect(store.requests).toHaveLength(1);
  });

  it('keeps the status, headers and request id of a response that fails its schema', async () => {
    const { client, store } = setup();
    store.injectFault({ status: 200, body: { pets: [] } });
    const error = (await client.listPets().catch((e: unknown) => e)) as ResponseValidationError;
    expect(error).toBeInstanceOf(ResponseValidationError);
    const requestId = store.requests[0]?.requestId;
    expect(requestId).toEqual(expect.any(String));
    expect(error).toMatchObject({ status: 200, requestId });
    expect(error.headers.get('x-request-id')).toBe(requestId);
    expect(error.toJSON()).toMatchObject({ status: 200, requestId, headers: { 'x-request-id': requestId } });
    expectNoKey(error);
  });
});

describe("the client's own refusals", () => {
  it('are one class with a code and no status, body or headers: the service said nothing', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({ status: 429, headers: { 'Retry-After': '3600' } });
    await client.listPets().catch(() => {});
    const error = await client.listPets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RefusedError);
    expect(error).toBeInstanceOf(PetStoreError);
    expect(error).not.toBeInstanceOf(APIError);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'RefusedError',
      message: expect.stringMatching(/beyond maxRetryAfter; nothing was sent\.$/),
      sent: 'no',
      code: 'client_rate_limited',
      retryAfterMs: expect.any(Number),
    });
    expectNoKey(error);
    await client.close();
    const closed = await client.listPets().catch((e: unknown) => e);
    expect(closed).toBeInstanceOf(RefusedError);
    expect(closed).toMatchObject({ code: 'client_closed', sent: 'no', retryAfterMs: null });
    expect(closed).not.toHaveProperty('status');
  });

  it('leave RateLimitError to a 429 the service sent', async () => {
    const { client, store } = setup({ maxRetries: 0 });
    store.injectFault({ status: 429, headers: { 'Retry-After': '3600' } });
    const answered = await client.listPets().catch((e: unknown) => e);
    expect(answered).toBeInstanceOf(RateLimitError);
    expect(answered).toMatchObject({ status: 429, sent: 'yes' });
    // The cooldown it set holds the next call: refused by the client, not a second 429.
    const held = await client.listPets().catch((e: unknown) => e);
    expect(held).toBeInstanceOf(RefusedError);
    expect(held).not.toBeInstanceOf(RateLimitError);
    expect(held).toMatchObject({ code: 'client_rate_limited', sent: 'no' });
    expect(store.requests).toHaveLength(1);
  });

  it('type each name as its literal, so a comparison with a name no class has does not compile', () => {
    const error: PetStoreError = new RefusedError('client_closed', 'closed');
    const refused: 'RefusedError' = new RefusedError('client_deadline', 'late').name;
    // @ts-expect-error no error class is named 'RateLimitErorr'
    expect(error.name === 'RateLimitErorr').toBe(false);
    expect(refused).toBe('RefusedError');
  });
});
