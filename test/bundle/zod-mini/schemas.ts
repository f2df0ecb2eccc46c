/**
 * src/schemas.ts written with zod/mini, schema for schema, to weigh what the switch would save.
 * Only the bundle-size comparison uses it.
 *
 * @module
 */
import { en } from 'zod/locales';
import * as z from 'zod/mini';

// Classic zod installs the English messages on import; zod/mini leaves it to the application.
z.config(en());

const int64 = z.int();

export const PetStatusSchema = z.enum(['available', 'pending', 'sold']);

const newPetShape = {
  name: z.string(),
  categoryId: int64,
  status: z.optional(PetStatusSchema),
};

export const NewPetSchema = z.strictObject(newPetShape);

export const PetSchema = z.object({ id: int64, ...newPetShape });

export const PetListSchema = z.array(PetSchema);

export const ErrorBodySchema = z.object({ code: z.string(), message: z.string(), status: z.int() });

export const ListPetsParamsSchema = z.strictObject({
  limit: z.optional(z.int().check(z.minimum(1), z.maximum(100))),
  status: z.optional(PetStatusSchema),
});

export const PetIdSchema = int64;
