import { describe, expect, it } from 'vitest';
import { type APIError, InternalServerError, NotFoundError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { getPet, listPets, matching } from './support/operations.js';

useFaultHarness();

describe('an error response labelled JSON whose body is not JSON', () => {
  it.each([
    {
      what: 'a 502 from a proxy',
      operation: listPets,
      status: 502,
      text: 'upstream connect error or disconnect/reset before headers',
      errorClass: InternalServerError,
    },
    {
      what: 'a truncated 404',
      operation: getPet,
      status: 404,
      text: '{"code":"not_found","mess',
      errorClass: NotFoundError,
    },
  ])('keeps the raw text of $what', async ({ operation, status, text, errorClass }) => {
    const { client, store, logger } = faultSetup();
    store.injectFault({
      match: matching(operation),
      status,
      body: text,
      headers: { 'Content-Type': 'application/json' },
      times: Infinity,
    });
    const { error } = await settle(operation.call(client, { maxRetries: 0 }));
    expect(error).toBeInstanceOf(errorClass);
    expect((error as APIError).code).toBe(`http_${status}`);
    expect((error as APIError).body).toBe(text);
    expectKeyHidden(error, logger);
  });
});
