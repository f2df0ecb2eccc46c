import { describe, expect, it } from 'vitest';
import {
  type APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  RateLimitError,
} from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import {
  attempts,
  created,
  createPet,
  getPet,
  listPets,
  matching,
  type Operation,
} from './support/operations.js';

useFaultHarness();

const BAD_GATEWAY_PAGE = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';

interface OddError {
  readonly what: string;
  readonly operation: Operation;
  readonly status: number;
  readonly text: string;
  readonly contentType: string;
  readonly headers?: Record<string, string>;
  readonly errorClass: typeof APIError;
  /** The body the error keeps: the raw text, or `undefined` for an empty body. */
  readonly body: unknown;
  readonly attempts: number;
}

const oddErrors: OddError[] = [
  {
    what: 'an HTML 502 on listPets',
    operation: listPets,
    status: 502,
    text: BAD_GATEWAY_PAGE,
    contentType: 'text/html',
    errorClass: InternalServerError,
    body: BAD_GATEWAY_PAGE,
    attempts: 3,
  },
  {
    what: 'an HTML 502 on createPet',
    operation: createPet,
    status: 502,
    text: BAD_GATEWAY_PAGE,
    contentType: 'text/html',
    errorClass: InternalServerError,
    body: BAD_GATEWAY_PAGE,
    attempts: 1,
  },
  {
    what: 'an empty 404 on getPet',
    operation: getPet,
    status: 404,
    text: '',
    contentType: 'application/json',
    errorClass: NotFoundError,
    body: undefined,
    attempts: 1,
  },
  {
    what: 'a plain-text 429 on listPets',
    operation: listPets,
    status: 429,
    text: 'Too many requests. Slow down.',
    contentType: 'text/plain',
    headers: { 'Retry-After': '1' },
    errorClass: RateLimitError,
    body: 'Too many requests. Slow down.',
    attempts: 3,
  },
  {
    what: 'a plain-text 429 on createPet',
    operation: createPet,
    status: 429,
    text: 'Too many requests. Slow down.',
    contentType: 'text/plain',
    headers: { 'Retry-After': '1' },
    errorClass: RateLimitError,
    body: 'Too many requests. Slow down.',
    attempts: 3,
  },
  {
    what: 'an HTML 401 from a login proxy',
    operation: listPets,
    status: 401,
    text: '<html><body>Please sign in</body></html>',
    contentType: 'text/html',
    errorClass: AuthenticationError,
    body: '<html><body>Please sign in</body></html>',
    attempts: 1,
  },
  {
    what: 'a plain-text 400 on createPet',
    operation: createPet,
    status: 400,
    text: 'Bad Request',
    contentType: 'text/plain',
    errorClass: BadRequestError,
    body: 'Bad Request',
    attempts: 1,
  },
  {
    what: 'a JSON 409 that is not the Error shape',
    operation: createPet,
    status: 409,
    text: '{"error":"conflict","detail":["busy"]}',
    contentType: 'application/json',
    errorClass: ConflictError,
    body: { error: 'conflict', detail: ['busy'] },
    attempts: 1,
  },
];

describe('an error response whose body is not the Error shape', () => {
  it.each(oddErrors)('turns $what into the class of its status, keeping the raw body', async (odd) => {
    const { client, store, logger } = faultSetup();
    store.injectFault({
      match: matching(odd.operation),
      status: odd.status,
      body: odd.text,
      headers: { 'Content-Type': odd.contentType, ...odd.headers },
      times: Infinity,
    });
    const { error } = await settle(odd.operation.call(client, { maxRetries: 2 }));
    expect(error).toBeInstanceOf(odd.errorClass);
    expect((error as Error).constructor).toBe(odd.errorClass);
    expect(error).toMatchObject({ status: odd.status, code: `http_${odd.status}` });
    expect((error as APIError).body).toEqual(odd.body);
    expect((error as Error).message).toMatch(new RegExp(`^${odd.status}\\b`));
    expect(attempts(store, odd.operation)).toBe(odd.attempts);
    expect(created(store)).toBe(0);
    expectKeyHidden(error, logger);
  });
});
