/**
 * The model written plainly in each flavour of zod, as an application that uses ky and zod without
 * the SDK would write it: the contenders the SDK's parse and call costs are measured against.
 *
 * @module
 */
import * as z from 'zod';
import * as zm from 'zod/mini';

const status = z.enum(['available', 'pending', 'sold']);

/** Classic zod: a pet and a page of them. */
export const ClassicPetSchema = z.object({
  id: z.int(),
  name: z.string(),
  categoryId: z.int(),
  status: status.optional(),
});
export const ClassicPetListSchema = z.array(ClassicPetSchema);

const miniStatus = zm.enum(['available', 'pending', 'sold']);

/** zod/mini's own objects, as the SDK's browser build has them: a page of pets. */
export const MiniPetListSchema = zm.array(
  zm.object({ id: zm.int(), name: zm.string(), categoryId: zm.int(), status: zm.optional(miniStatus) }),
);
