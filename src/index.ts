export { PetStoreClient } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export type { Logger } from './core/log.js';
export type { ClientOptions } from './core/options.js';
export type { StandardSchemaV1 } from './core/standard-schema.js';
export type { Fetch, RateLimit, RequestOptions } from './core/types.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InternalServerError,
  NotFoundError,
  PermissionDeniedError,
  PetStoreError,
  RateLimitError,
  RedirectError,
  RefusedError,
  RequestValidationError,
  ResponseTooLargeError,
  ResponseValidationError,
  UnprocessableEntityError,
} from './errors.js';
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
