import { describe, expect, it } from 'vitest';
import { ResponseValidationError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import {
  attempts,
  created,
  createPet,
  IDEMPOTENT_WITH_BODY,
  matching,
  WITH_BODY,
} from './support/operations.js';

useFaultHarness();

const HTML = '<!doctype html><html><body><h1>Down for maintenance</h1></body></html>';

interface BadBody {
  readonly what: string;
  readonly text: string;
  readonly contentType: string;
  /** What `ResponseValidationError.body` holds: the parsed JSON, else the raw text. */
  readonly raw: unknown;
  /** Whether zod had something to report: the body was JSON, or empty (read as no value at all). */
  readonly schemaIssues: boolean;
}

const badBodies: BadBody[] = [
  {
    what: 'malformed JSON',
    text: '[{"id":1,"na',
    contentType: 'application/json',
    raw: '[{"id":1,"na',
    schemaIssues: false,
  },
  { what: 'an empty body', text: '', contentType: 'application/json', raw: '', schemaIssues: false },
  { what: 'an HTML page', text: HTML, contentType: 'text/html', raw: HTML, schemaIssues: false },
  { what: 'JSON null', text: 'null', contentType: 'application/json', raw: null, schemaIssues: true },
  {
    what: 'an object of the wrong shape',
    text: '{"pets":[]}',
    contentType: 'application/json',
    raw: { pets: [] },
    schemaIssues: true,
  },
  {
    what: 'a pet with a string id',
    text: '{"id":"1","name":"Rex","categoryId":1}',
    contentType: 'application/json',
    raw: { id: '1', name: 'Rex', categoryId: 1 },
    schemaIssues: true,
  },
];

describe.each(WITH_BODY)('$name answered with a 2xx that is not the documented body', (operation) => {
  it.each(badBodies)(
    'rejects $what with ResponseValidationError carrying the raw body, without a retry',
    async (bad) => {
      const { client, store, logger } = faultSetup();
      store.injectFault({
        match: matching(operation),
        status: operation.status,
        body: bad.text,
        headers: { 'Content-Type': bad.contentType },
      });
      const { error } = await settle(operation.call(client));
      expect(error).toBeInstanceOf(ResponseValidationError);
      const { body, issues, message } = error as ResponseValidationError;
      expect(body).toEqual(bad.raw);
      expect(issues.length > 0).toBe(bad.schemaIssues);
      expect(message).toContain(`${operation.method} /pets`);
      expect(attempts(store, operation)).toBe(1);
      expect(created(store)).toBe(0);
      expectKeyHidden(error, logger);
    },
  );
});

describe('a createPet the service applied, answered with a body that is not a Pet', () => {
  it('rejects with ResponseValidationError and leaves exactly one new pet', async () => {
    const { client, store, logger } = faultSetup({
      through: (fetch) => async (input, init) => {
        const response = await fetch(input, init);
        return new Response(HTML, { status: response.status, headers: { 'Content-Type': 'text/html' } });
      },
    });
    const { error } = await settle(createPet.call(client));
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as ResponseValidationError).body).toBe(HTML);
    expect(attempts(store, createPet)).toBe(1);
    expect(created(store)).toBe(1);
    expectKeyHidden(error, logger);
  });
});

describe.each(IDEMPOTENT_WITH_BODY)(
  '$name answered 200 with a body that is not the documented one',
  (operation) => {
    it('is not retried, since another attempt would read the same answer', async () => {
      const { client, store, logger } = faultSetup({ client: { maxRetries: 5 } });
      store.injectFault({ match: matching(operation), status: 200, body: '{', times: Infinity });
      const { error } = await settle(operation.call(client));
      expect(error).toBeInstanceOf(ResponseValidationError);
      expect(attempts(store, operation)).toBe(1);
      expectKeyHidden(error, logger);
    });
  },
);
