/**
 * The part of ajv (an optional peer dependency, loaded on first use) that the contract check uses,
 * typed here so that the package's declarations never import ajv.
 *
 * @module
 */

/** One problem ajv found. */
export interface AjvError {
  readonly instancePath: string;
  readonly keyword: string;
  readonly message?: string;
  readonly params: Readonly<Record<string, unknown>>;
}

/** A compiled schema. */
export interface AjvValidate {
  (data: unknown): boolean;
  errors?: readonly AjvError[] | null;
}

/** An ajv instance: JSON Schema 2020-12, which OpenAPI 3.1 uses as it is. */
export interface Ajv {
  compile(schema: object): AjvValidate;
}

/** ajv's `Ajv2020` class. */
export type AjvConstructor = new (options: Record<string, unknown>) => Ajv;

/** The module `ajv/dist/2020` as required: the class, which also carries itself as `default`. */
export function ajvClass(module: unknown): AjvConstructor {
  const loaded = module as AjvConstructor & { default?: AjvConstructor };
  return loaded.default ?? loaded;
}

/** The error thrown when ajv cannot be loaded. */
export function ajvUnavailable(cause: unknown): Error {
  return new Error(
    'Checking against the contract needs ajv, an optional peer dependency of animal-store-sdk: npm install --save-dev ajv',
    { cause },
  );
}
