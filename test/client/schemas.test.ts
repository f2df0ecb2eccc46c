import * as v from 'valibot';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import * as zm from 'zod/mini';
import {
  ErrorBodySchema,
  ListPetsParamsSchema,
  NewPetSchema,
  type Pet,
  PetIdSchema,
  PetListSchema,
  PetSchema,
  PetStatusSchema,
} from '../../src/index.js';

const REX = { id: 1, name: 'Rex', categoryId: 1, status: 'available' } as const;

/** The messages a schema gives for `value`. */
function messages(
  schema: { safeParse(value: unknown): { error?: { issues: { message: string }[] } } },
  value: unknown,
) {
  return schema.safeParse(value).error?.issues.map((issue) => issue.message);
}

/** The SDK's messages for a few bad inputs, across the model. */
function sdkMessages() {
  return {
    limit: messages(ListPetsParamsSchema, { limit: 500, status: 'lost', offset: 1 }),
    pet: messages(NewPetSchema, { name: 7, categoryId: 1.5 }),
    id: messages(PetIdSchema, 2 ** 60),
    list: messages(PetListSchema, 'pets'),
  };
}

const EXPECTED_SDK_MESSAGES = {
  limit: [
    'Too big: expected number to be <=100',
    'Invalid option: expected one of "available"|"pending"|"sold"',
    'Unrecognized key: "offset"',
  ],
  pet: ['Invalid input: expected string, received number', 'Invalid input: expected int, received number'],
  id: ['Too big: expected int to be <=9007199254740991'],
  list: ['Invalid input: expected array, received string'],
};

afterEach(() => {
  // Back to what classic zod sets up on import: its English messages, and nothing custom.
  z.config({ ...z.locales.en(), customError: undefined });
});

describe('the exported schemas', () => {
  it('parse and safeParse, with the model types', () => {
    const pet = PetSchema.parse({ ...REX, extra: 'stripped' });
    expect(pet).toEqual(REX);
    expectTypeOf(pet).toEqualTypeOf<Pet>();
    expect(PetStatusSchema.parse('sold')).toBe('sold');
    expect(PetStatusSchema.safeParse('lost').success).toBe(false);
    expect(NewPetSchema.safeParse({ name: 'Rex', categoryId: 1, stauts: 'sold' }).success).toBe(false);
    expect(ErrorBodySchema.parse({ code: 'not_found', message: 'No pet', status: 404 }).status).toBe(404);
    expect(() => PetListSchema.parse([{ ...REX, id: 1.5 }])).toThrow();
  });

  it('compose with classic zod: in an array, and spread into an object of its own', () => {
    const Pets = z.array(PetSchema).max(2);
    expect(Pets.parse([REX])).toEqual([REX]);
    expect(Pets.safeParse([REX, REX, REX]).success).toBe(false);
    const Adoption = z.object({ ...PetSchema.shape, adoptedBy: z.string() });
    const adoption = Adoption.parse({ ...REX, adoptedBy: 'Ada' });
    expectTypeOf(adoption.adoptedBy).toEqualTypeOf<string>();
    expectTypeOf(adoption.status).toEqualTypeOf<Pet['status']>();
    expect(Adoption.safeParse({ ...REX }).error?.issues.map((issue) => issue.path)).toEqual([['adoptedBy']]);
    // Classic zod's chained methods, on an object rebuilt from the shape.
    expect(z.object(PetSchema.shape).pick({ name: true }).parse(REX)).toEqual({ name: 'Rex' });
    expect(z.optional(PetSchema).parse(undefined)).toBeUndefined();
  });

  it('compose with zod/mini', () => {
    const Shelter = zm.object({ name: zm.string(), pets: zm.array(PetSchema) });
    expect(Shelter.parse({ name: 'North', pets: [REX] })).toEqual({ name: 'North', pets: [REX] });
    expect(zm.safeParse(zm.extend(PetSchema, { chip: zm.string() }), REX).success).toBe(false);
  });

  it('are Standard Schemas, so any library that takes one takes them', () => {
    expect(PetSchema['~standard'].vendor).toBe('zod');
    expect(v.parse(v.array(v.string()), ['a'])).toEqual(['a']);
    const result = PetSchema['~standard'].validate({ ...REX, id: 'one' });
    expect(result).toMatchObject({
      issues: [{ path: ['id'], message: 'Invalid input: expected number, received string' }],
    });
  });

  it("give the SDK's English messages, naming the bound or the allowed values, whatever zod is told", () => {
    expect(sdkMessages()).toEqual(EXPECTED_SDK_MESSAGES);
    z.config(z.locales.fr());
    expect(sdkMessages()).toEqual(EXPECTED_SDK_MESSAGES);
    z.config({ customError: () => 'custom' });
    expect(sdkMessages()).toEqual(EXPECTED_SDK_MESSAGES);
    // No locale at all, as where only zod/mini is loaded.
    z.config({ localeError: () => undefined, customError: undefined });
    expect(messages(z.string(), 1)).toEqual(['Invalid input']);
    expect(sdkMessages()).toEqual(EXPECTED_SDK_MESSAGES);
  });
});
