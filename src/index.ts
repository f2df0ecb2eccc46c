export { PetStoreClient } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export {
  type AttemptContext,
  DIAGNOSTICS_CHANNELS,
  type OperationContext,
  type QueueMessage,
  type StoreMessage,
  type WaitMessage,
} from './core/diagnostics/diagnostics.js';
export type { Logger, LogLevel } from './core/log.js';
export type { ClientOptions } from './core/options.js';
export { type FallbackOptions, withFallback } from './core/pacing/fallback-store.js';
export { createInProcessRateLimitStore } from './core/pacing/in-process-store.js';
export type {
  RateLimitAcquire,
  RateLimitAlone,
  RateLimitDecision,
  RateLimitFleet,
  RateLimitObservation,
  RateLimitOutcome,
  RateLimitScope,
  RateLimitStore,
} from './core/pacing/rate-limit-store.js';
export type { RawRequest } from './core/raw-request.js';
export type { StandardSchemaV1 } from './core/standard-schema.js';
export type {
  ClientQueue,
  Fetch,
  FetchOptions,
  HeadersInput,
  HttpMethod,
  QueryValue,
  RateLimit,
  RateLimitWait,
  RequestOptions,
  WaitReason,
} from './core/types.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorInit,
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
  type RequestSent,
  RequestValidationError,
  type ResponseInfo,
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
