/**
 * The description's schemas say what the zod schemas do: for any value, ajv's verdict on the
 * document's schema is zod's on the schema it was generated from. Values JSON cannot carry (undefined
 * fields, NaN, functions) are left out: neither a request nor an answer holds them.
 */
import { isDeepStrictEqual } from 'node:util';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { ErrorBodySchema, ListPetsParamsSchema, NewPetSchema, PetSchema } from '../../src/schemas.js';
import { petStoreOpenApi } from '../../src/testing/index.js';
import { listParams, newPet } from '../properties/support/arbitraries.js';

const document = petStoreOpenApi() as unknown as { components: { schemas: Record<string, object> } };
const ajv = new Ajv2020({
  strict: false,
  formats: { int64: { type: 'number', validate: Number.isSafeInteger } },
});
const validate = (name: string) =>
  ajv.compile({ $ref: `#/components/schemas/${name}`, components: document.components });

/** Whether `value` survives JSON as it is: what a body on the wire can be. */
function jsonSafe(value: unknown): boolean {
  try {
    return value !== undefined && isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value);
  } catch {
    return false;
  }
}

const pet = fc.oneof(
  newPet.map((value) => (typeof value === 'object' && value !== null ? { id: 1, ...value } : value)),
  fc.record({ id: fc.oneof(fc.integer(), fc.double()), name: fc.string(), categoryId: fc.integer() }),
);
const errorBody = fc.oneof(
  fc.record({ code: fc.string(), message: fc.string(), status: fc.oneof(fc.integer(), fc.double()) }),
  fc.anything(),
);

describe.each([
  ['NewPet', NewPetSchema, newPet],
  ['Pet', PetSchema, pet],
  ['Error', ErrorBodySchema, errorBody],
] as const)('the %s schema of the description', (name, schema, values) => {
  it('accepts exactly what the zod schema accepts', () => {
    const check = validate(name);
    fc.assert(
      fc.property(values.filter(jsonSafe), (value) => {
        expect(check(value), fc.stringify(value)).toBe((schema as z.ZodMiniType).safeParse(value).success);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the parameters of listPets in the description', () => {
  it('accept exactly what ListPetsParamsSchema accepts, an undefined one being absent', () => {
    const list = petStoreOpenApi().paths['/pets'] as {
      get: { parameters: { name: string; schema: object }[] };
    };
    const { parameters } = list.get;
    const checks = new Map(
      parameters.map(({ name, schema }) => [
        name,
        ajv.compile({ ...schema, components: document.components }),
      ]),
    );
    fc.assert(
      fc.property(listParams, (params) => {
        const entries: [string, unknown][] =
          typeof params === 'object' && params !== null && !Array.isArray(params)
            ? // A known parameter given as undefined is absent; an unknown name is refused whatever its value.
              Object.entries(params).filter(([key, value]) => value !== undefined || !checks.has(key))
            : [['', params]];
        const byDocument = entries.every(([key, value]) => checks.get(key)?.(value) ?? false);
        expect(byDocument, fc.stringify(params)).toBe(ListPetsParamsSchema.safeParse(params).success);
      }),
      { numRuns: 500 },
    );
  });
});
