/**
 * The Standard Schema interface, version 1 (https://standardschema.dev), copied as its authors
 * intend, so that the SDK takes any library's schema without depending on one.
 *
 * @module
 */

/**
 * A schema of any library that implements Standard Schema v1: zod (classic and mini), valibot,
 * arktype and others. `client.request({ schema })` validates the response body with it.
 *
 * @example
 * ```ts
 * import { PetStoreClient, type StandardSchemaV1 } from 'animal-store-sdk';
 * import * as v from 'valibot';
 *
 * const OrderSchema: StandardSchemaV1<unknown, { id: number }> = v.object({ id: v.number() });
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1' });
 * const order = await client.request({ method: 'GET', path: '/store/orders/7', schema: OrderSchema });
 * console.log(order.id);
 * ```
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The Standard Schema properties. */
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/**
 * The parts of {@link StandardSchemaV1}.
 *
 * @example
 * ```ts
 * import type { StandardSchemaV1 } from 'animal-store-sdk';
 *
 * const issue: StandardSchemaV1.Issue = { message: 'Expected a number', path: ['quantity'] };
 * ```
 */
export declare namespace StandardSchemaV1 {
  /** The properties under `~standard`. */
  export interface Props<Input = unknown, Output = Input> {
    /** The version of the standard: 1. */
    readonly version: 1;
    /** The name of the schema library. */
    readonly vendor: string;
    /** Validates an unknown value, at once or in a promise. */
    readonly validate: (value: unknown) => Result<Output> | Promise<Result<Output>>;
    /** The input and output types, for inference only. */
    readonly types?: Types<Input, Output> | undefined;
  }

  /** What `validate` returns: the value, or the issues. */
  export type Result<Output> = SuccessResult<Output> | FailureResult;

  /** A value that passed. */
  export interface SuccessResult<Output> {
    /** The typed output value. */
    readonly value: Output;
    /** No issues: the value passed. */
    readonly issues?: undefined;
  }

  /** A value that failed. */
  export interface FailureResult {
    /** What was wrong. */
    readonly issues: ReadonlyArray<Issue>;
  }

  /** One thing wrong with a value, as the schema's library reports it. */
  export interface Issue {
    /** The library's message. */
    readonly message: string;
    /** Where in the value, if not at its root. */
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }

  /** One step of an issue's path, where a library gives it as an object. */
  export interface PathSegment {
    /** The property or index. */
    readonly key: PropertyKey;
  }

  /** The types a schema takes and gives. */
  export interface Types<Input = unknown, Output = Input> {
    /** What the schema takes. */
    readonly input: Input;
    /** What the schema gives. */
    readonly output: Output;
  }

  /** The type a schema takes. */
  export type InferInput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['input'];

  /** The type a schema gives. */
  export type InferOutput<Schema extends StandardSchemaV1> = NonNullable<
    Schema['~standard']['types']
  >['output'];
}
