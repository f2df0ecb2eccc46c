// The error classes left out: every failure is a plain Error.
export class PetStoreError extends Error {}
export class APIError extends PetStoreError {
  static generate(): APIError {
    return new APIError();
  }
}
export class BadRequestError extends APIError {}
export class AuthenticationError extends APIError {}
export class PermissionDeniedError extends APIError {}
export class NotFoundError extends APIError {}
export class ConflictError extends APIError {}
export class UnprocessableEntityError extends APIError {}
export class RateLimitError extends APIError {}
export class InternalServerError extends APIError {}
export class APIConnectionError extends PetStoreError {}
export class APIConnectionTimeoutError extends APIConnectionError {}
export class APIUserAbortError extends PetStoreError {}
export class RefusedError extends PetStoreError {}
export class RequestValidationError extends PetStoreError {}
export class ResponseValidationError extends PetStoreError {}
export class ResponseTooLargeError extends ResponseValidationError {}
export class RedirectError extends PetStoreError {}
