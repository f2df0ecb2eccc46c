/**
 * The Animal Store's operations, one entry each: the only place an operation's name, method, path,
 * argument, response, success status, idempotency and deprecation are written. The client's methods,
 * the fake's routes, the OpenAPI description and the tests read them from here. Data, no behaviour.
 *
 * @module
 */
import type * as z from 'zod/mini';
import { ListPetsParamsSchema, NewPetSchema, PetIdSchema, PetListSchema, PetSchema } from './schemas.js';

/** One operation of the interface. */
export interface OperationSpec {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template under the base URL; `{name}` is the path parameter `input` fills. */
  readonly path: `/${string}`;
  /** The name of the client method's argument, as error messages give it. */
  readonly argument: string;
  /** The argument's schema, by where it goes: the path parameter of `path`, the query, or the JSON body. */
  readonly param?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly body?: z.ZodMiniType;
  /** The schema of a successful response's body; none for a success without a body (204). */
  readonly response?: z.ZodMiniType;
  /** The status of a success. */
  readonly status: number;
  /** Whether sending it twice changes nothing more than sending it once: retried after any failure. */
  readonly idempotent: boolean;
  /** When the service removes it (an ISO date), and the operation to call instead. */
  readonly deprecated?: { readonly sunset: string; readonly successor: string };
}

export const OPERATIONS = {
  listPets: {
    method: 'GET',
    path: '/pets',
    argument: 'params',
    query: ListPetsParamsSchema,
    response: PetListSchema,
    status: 200,
    idempotent: true,
  },
  createPet: {
    method: 'POST',
    path: '/pets',
    argument: 'pet',
    body: NewPetSchema,
    response: PetSchema,
    status: 201,
    idempotent: false,
  },
  getPet: {
    method: 'GET',
    path: '/pets/{petId}',
    argument: 'petId',
    param: PetIdSchema,
    response: PetSchema,
    status: 200,
    idempotent: true,
    deprecated: { sunset: '2030-12-05', successor: 'listPets' },
  },
} as const satisfies Record<string, OperationSpec>;

/** An operation's name: a method of `PetStoreClient`. */
export type OperationName = keyof typeof OPERATIONS;

/** What the client method of operation `N` resolves with: the response's data, or `undefined` without one. */
export type OperationData<N extends OperationName> = (typeof OPERATIONS)[N] extends {
  readonly response: infer S extends z.ZodMiniType;
}
  ? z.output<S>
  : undefined;

type InputSchema<N extends OperationName> = (typeof OPERATIONS)[N] extends
  | { readonly param: infer S extends z.ZodMiniType }
  | { readonly query: infer S extends z.ZodMiniType }
  | { readonly body: infer S extends z.ZodMiniType }
  ? S
  : never;

/** The argument the client method of operation `N` takes, and what it becomes once checked. */
export type OperationArgument<N extends OperationName> = z.input<InputSchema<N>>;
export type CheckedArgument<N extends OperationName> = z.output<InputSchema<N>>;
