/**
 * The Animal Store model as zod/mini schemas, and the types inferred from them: the one source the
 * client and the fake server validate with. Each carries the SDK's own messages, so none touches
 * zod's global configuration.
 *
 * @module
 */

import * as z from 'zod/mini';
import { SDK_MESSAGES } from './shared/issue-message.js';
import { object, strictObject } from './shared/object-schema.js';

// An int64 id: a safe integer, since a larger one would round to a different animal.
const int64 = z.int(SDK_MESSAGES);

/**
 * The availability status of an animal: `available`, `pending` or `sold`.
 *
 * @example
 * ```ts
 * import { PetStatusSchema } from 'animal-store-sdk';
 *
 * PetStatusSchema.parse('available'); // 'available'
 * PetStatusSchema.safeParse('lost').success; // false
 * ```
 */
export const PetStatusSchema = z.enum(['available', 'pending', 'sold'], SDK_MESSAGES);

/**
 * The availability status of an animal.
 *
 * @example
 * ```ts
 * import type { PetStatus } from 'animal-store-sdk';
 *
 * const status: PetStatus = 'pending';
 * ```
 */
export type PetStatus = z.infer<typeof PetStatusSchema>;

const newPetShape = {
  /** The animal's name. */
  name: z.string(SDK_MESSAGES),
  /** Identifier of the category the animal belongs to. */
  categoryId: int64,
  /** Availability status. */
  status: z.optional(PetStatusSchema),
};

/**
 * The request body for adding an animal; an unknown field (`stauts`) is refused, not dropped.
 *
 * @example
 * ```ts
 * import { NewPetSchema } from 'animal-store-sdk';
 *
 * const result = NewPetSchema.safeParse({ name: 'Rex', categoryId: 1 });
 * result.success; // true
 * ```
 */
export const NewPetSchema = strictObject(newPetShape);

/**
 * An animal to add: the body of `createPet`.
 *
 * @example
 * ```ts
 * import type { NewPet } from 'animal-store-sdk';
 *
 * const rex: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };
 * ```
 */
export type NewPet = z.infer<typeof NewPetSchema>;

/**
 * An animal as the service returns it: the fields of {@link NewPetSchema} and its `id`; fields the
 * service may add later are stripped. It composes with classic zod and zod/mini alike.
 *
 * @example
 * ```ts
 * import { PetSchema } from 'animal-store-sdk';
 * import * as z from 'zod';
 *
 * const pet = PetSchema.parse({ id: 1, name: 'Rex', categoryId: 1, status: 'available' });
 * pet.id; // 1
 * const AdoptionSchema = z.object({ ...PetSchema.shape, adoptedBy: z.string() });
 * const Pets = z.array(PetSchema).max(10);
 * ```
 */
export const PetSchema = object({
  /** Unique identifier, assigned by the service on creation. */
  id: int64,
  ...newPetShape,
});

/**
 * An animal as the service returns it.
 *
 * @example
 * ```ts
 * import type { Pet } from 'animal-store-sdk';
 *
 * function describe(pet: Pet): string {
 *   return `#${pet.id} ${pet.name} (${pet.status ?? 'no status'})`;
 * }
 * ```
 */
export type Pet = z.infer<typeof PetSchema>;

/**
 * A list of animals, the body of a successful `listPets`.
 *
 * @example
 * ```ts
 * import { PetListSchema } from 'animal-store-sdk';
 *
 * PetListSchema.parse([{ id: 1, name: 'Rex', categoryId: 1 }]).length; // 1
 * ```
 */
export const PetListSchema = z.array(PetSchema, SDK_MESSAGES);

/**
 * The error body the service sends with a failed request.
 *
 * @example
 * ```ts
 * import { ErrorBodySchema } from 'animal-store-sdk';
 *
 * const body = ErrorBodySchema.parse({ code: 'not_found', message: 'No pet 7', status: 404 });
 * body.status; // 404
 * ```
 */
export const ErrorBodySchema = object({
  /** Machine-readable error code. */
  code: z.string(SDK_MESSAGES),
  /** Human-readable description. */
  message: z.string(SDK_MESSAGES),
  /** The HTTP status code of the response. */
  status: z.int(SDK_MESSAGES),
});

/**
 * The error body the service sends with a failed request.
 *
 * @example
 * ```ts
 * import type { ErrorBody } from 'animal-store-sdk';
 *
 * const body: ErrorBody = { code: 'unauthorized', message: 'Missing API key', status: 401 };
 * ```
 */
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/**
 * The parameters of `listPets`: a page size of 1 to 100 (the service's default is 20) and an
 * optional status filter.
 *
 * @example
 * ```ts
 * import { ListPetsParamsSchema } from 'animal-store-sdk';
 *
 * ListPetsParamsSchema.safeParse({ limit: 500 }).success; // false
 * ```
 */
export const ListPetsParamsSchema = strictObject({
  /** Maximum number of animals returned, 1 to 100. */
  limit: z.optional(z.int(SDK_MESSAGES).check(z.minimum(1), z.maximum(100))),
  /** Only animals with this status. */
  status: z.optional(PetStatusSchema),
});

/**
 * The parameters of `listPets`.
 *
 * @example
 * ```ts
 * import type { ListPetsParams } from 'animal-store-sdk';
 *
 * const params: ListPetsParams = { limit: 50, status: 'available' };
 * ```
 */
export type ListPetsParams = z.infer<typeof ListPetsParamsSchema>;

/**
 * The identifier of an animal, as `getPet` takes it.
 *
 * @example
 * ```ts
 * import { PetIdSchema } from 'animal-store-sdk';
 *
 * PetIdSchema.safeParse(1.5).success; // false
 * ```
 */
export const PetIdSchema = int64;
