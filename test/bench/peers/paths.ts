/**
 * The `paths` type openapi-fetch's contenders are typed by, derived from the table of operations as
 * openapi-typescript would write it from the OpenAPI description: no description is kept by hand.
 *
 * @module
 */
import type * as z from 'zod/mini';
import type { OPERATIONS } from '../../../src/operations.js';

type Table = typeof OPERATIONS;
type Entry = Table[keyof Table];
type Method = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
type Input<O, K extends string> = O extends { readonly [Key in K]: infer S extends z.ZodMiniType }
  ? z.input<S>
  : never;

type PathParameters<O> = O extends { readonly path: `${string}{${infer Name}}${string}` }
  ? { [Key in Name]: Input<O, 'param'> }
  : never;

type Operation<O> = {
  parameters: { query?: Input<O, 'query'>; header?: never; cookie?: never } & ([PathParameters<O>] extends [
    never,
  ]
    ? { path?: never }
    : { path: PathParameters<O> });
} & ([Input<O, 'body'>] extends [never]
  ? { requestBody?: never }
  : { requestBody: { content: { 'application/json': Input<O, 'body'> } } }) & {
    responses: {
      [Status in O extends { readonly status: infer S extends number } ? S : never]: {
        headers: { [name: string]: unknown };
        content: O extends { readonly response: infer S extends z.ZodMiniType }
          ? { 'application/json': z.output<S> }
          : never;
      };
    };
  };

/** Every path of the table, each method an operation, the others `never`, as openapi-typescript writes them. */
export type paths = {
  [Path in Entry['path']]: {
    parameters: { query?: never; header?: never; path?: never; cookie?: never };
  } & {
    [M in Method]: Extract<Entry, { readonly path: Path; readonly method: Uppercase<M> }> extends infer O
      ? [O] extends [never]
        ? never
        : Operation<O>
      : never;
  };
};
