export type { ErrorBody, ListPetsParams, NewPet, Pet, PetStatus } from './schemas.js';
export {
  ErrorBodySchema,
  ListPetsParamsSchema,
  NewPetSchema,
  PetIdSchema,
  PetListSchema,
  PetSchema,
  PetStatusSchema,
} from './schemas.js';
