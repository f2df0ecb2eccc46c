import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import {
  type Fetch,
  PetStoreClient,
  RequestValidationError,
  ResponseValidationError,
  type StandardSchemaV1,
} from '../../src/index.js';
import { settle, startFakeClock } from '../support/fake-clock.js';
import { API_KEY, BASE_URL } from './setup.js';

type Order = { id: number; petId: number; quantity: number };
const ORDERS: Order[] = [{ id: 7, petId: 1, quantity: 2 }];
const BAD_ORDERS = [{ id: 7, petId: 1, quantity: 'two' }];

/** The same shape in each library: an array of orders. */
const schemas = {
  'classic zod': z.array(z.object({ id: z.number(), petId: z.number(), quantity: z.number() })),
  'zod/mini': zm.array(zm.object({ id: zm.number(), petId: zm.number(), quantity: zm.number() })),
  valibot: v.array(v.object({ id: v.number(), petId: v.number(), quantity: v.number() })),
};

/** A service whose `GET /store/orders` answers `body`. */
function clientAnswering(body: unknown): PetStoreClient {
  const fetch: Fetch = async () => Response.json(body);
  return new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch, maxRetries: 0 });
}

beforeEach(startFakeClock);
afterEach(() => {
  vi.useRealTimers();
});

describe('client.request({ schema }) takes any Standard Schema', () => {
  it.each(Object.entries(schemas))('%s: the body is validated and typed by it', async (_, schema) => {
    const orders = await clientAnswering(ORDERS).request({ method: 'GET', path: '/store/orders', schema });
    expect(orders).toEqual(ORDERS);
    expectTypeOf(orders).toEqualTypeOf<Order[]>();
  });

  it.each(Object.entries(schemas))(
    '%s: a body it rejects is a ResponseValidationError with its own issues',
    async (_, schema) => {
      const request = clientAnswering(BAD_ORDERS).request({ method: 'GET', path: '/store/orders', schema });
      const { error } = await settle(request);
      expect(error).toBeInstanceOf(ResponseValidationError);
      const result = await schema['~standard'].validate(BAD_ORDERS);
      expect((error as ResponseValidationError).issues).toEqual(result.issues);
      expect((error as Error).message).toMatch(/^The response to GET \/store\/orders does not match/);
      expect((error as Error).message).toContain('0.quantity: ');
      expect((error as ResponseValidationError).body).toEqual(BAD_ORDERS);
    },
  );

  it('valibot: its issues stay valibot issues, paths of { key } objects included', async () => {
    const { error } = await settle(
      clientAnswering(BAD_ORDERS).request({ method: 'GET', path: '/store/orders', schema: schemas.valibot }),
    );
    const [issue] = (error as ResponseValidationError).issues;
    expect(issue).toMatchObject({ kind: 'schema', type: 'number', expected: 'number', received: '"two"' });
    expect((error as Error).message).toContain(`0.quantity: ${issue?.message}`);
  });

  it('a schema that validates asynchronously is awaited', async () => {
    const schema = v.pipeAsync(
      v.array(v.object({ id: v.number() })),
      v.checkAsync(async (orders) => orders.length > 0, 'no orders'),
    );
    const client = clientAnswering(ORDERS);
    expect(await client.request({ method: 'GET', path: '/store/orders', schema })).toEqual([{ id: 7 }]);
    const { error } = await settle(
      clientAnswering([]).request({ method: 'GET', path: '/store/orders', schema }),
    );
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect((error as Error).message).toMatch(/does not match its schema: no orders$/);
  });

  it('a hand-written Standard Schema types the result with its output type', async () => {
    const count: StandardSchemaV1<unknown, number> = {
      '~standard': {
        version: 1,
        vendor: 'example',
        validate: (value) =>
          Array.isArray(value) ? { value: value.length } : { issues: [{ message: 'no list' }] },
      },
    };
    const orders = await clientAnswering(ORDERS).request({
      method: 'GET',
      path: '/store/orders',
      schema: count,
    });
    expectTypeOf(orders).toEqualTypeOf<number>();
    expect(orders).toBe(1);
  });

  it('without a schema the result is unknown', async () => {
    const orders = await clientAnswering(ORDERS).request({ method: 'GET', path: '/store/orders' });
    expectTypeOf(orders).toEqualTypeOf<unknown>();
    expect(orders).toEqual(ORDERS);
  });

  it.each([
    ['a function', () => true],
    ['an object with safeParse only', { safeParse: () => ({ success: true }) }],
    ['a Standard Schema of another version', { '~standard': { version: 2, validate: () => ({ value: 1 }) } }],
  ])('refuses %s as a schema before anything is sent', async (_, schema) => {
    const fetch = vi.fn<Fetch>();
    const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch });
    const { error } = await settle(
      client.request({ method: 'GET', path: '/store/orders', schema: schema as unknown as StandardSchemaV1 }),
    );
    expect(error).toBeInstanceOf(RequestValidationError);
    expect((error as Error).message).toMatch(/schema: Expected a Standard Schema/);
    expect(fetch).not.toHaveBeenCalled();
  });
});
