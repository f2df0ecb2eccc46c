/**
 * The Animal Store model as zod schemas, and the TypeScript types inferred from them.
 *
 * These schemas are the single source of truth: the client validates requests and parses
 * responses with them, and the fake server validates what it receives with them.
 *
 * They are zod/mini schemas, imported as a namespace so that a bundler keeps only what they use;
 * they compose with classic zod and zod/mini alike, and implement Standard Schema. Each carries
 * the SDK's own messages (`SDK_MESSAGES`), so it never touches zod's global configuration. Their
 * objects are compiled for speed on servers, and plain in the browser build.
 *
 * @module
 */

import * as z from 'zod/mini';
import { SDK_MESSAGES } from './shared/issue-message.js';
import { object, strictObject } from './shared/object-schema.js';

/**
 * An `int64` identifier. JavaScript numbers hold integers exactly only up to 2^53 - 1, so a
 * larger value is rejected rather than silently rounded to a different animal.
 */
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
 * The request body for adding an animal. `name` and `categoryId` are required.
 *
 * Unknown fields are rejected, so a misspelt field (`stauts`) is reported instead of being
 * silently dropped.
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
 * An animal as the service returns it: every field of {@link NewPetSchema} plus the `id` the
 * service assigned. Fields the service may add later are accepted and stripped.
 *
 * A zod/mini schema: it composes with classic zod (`z.array(PetSchema)`,
 * `z.object({ ...PetSchema.shape, extra: z.string() })`) and with zod/mini alike.
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
