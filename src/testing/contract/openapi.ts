/**
 * The Animal Store's OpenAPI 3.1 description, generated from the zod schemas the SDK and the fake
 * share (src/schemas.ts), so that it cannot drift from either. It says what the interface says; where
 * the fake chose what the interface leaves open, the object carries an `x-fake-choice` saying what.
 * `npm run build` writes it to dist/openapi.json (`animal-store-sdk/openapi.json`), and the fake's
 * control API serves it at `GET /__fake/openapi.json`.
 *
 * @module
 */
import * as z from 'zod/mini';
import { OPERATIONS, type OperationName, type OperationSpec } from '../../operations.js';
import { ErrorBodySchema, NewPetSchema, PetIdSchema, PetSchema, PetStatusSchema } from '../../schemas.js';
import { REQUEST_ID_HEADER } from '../../shared/request-id.js';
import { DEFAULT_PAGE_SIZE, GET_PET_DEPRECATION } from '../rules/operations.js';
import { ERROR_CODES } from '../rules/responses.js';
import { DEFAULT_BASE_URL } from '../store/base-url.js';
import { DEFAULT_NEW_PET_STATUS } from '../store/pet-repository.js';

/**
 * An OpenAPI 3.1 document, as JSON: {@link petStoreOpenApi} returns one.
 *
 * @example
 * ```ts
 * import { petStoreOpenApi, type OpenApiDocument } from 'animal-store-sdk/testing';
 *
 * const document: OpenApiDocument = petStoreOpenApi();
 * document.openapi; // '3.1.0'
 * ```
 */
export interface OpenApiDocument {
  /** The OpenAPI version, `3.1.0`. */
  readonly openapi: string;
  /** Title, version and description of the interface. */
  readonly info: {
    /** `Animal Store`. */
    readonly title: string;
    /** The interface's version, `1.0.0`. */
    readonly version: string;
    readonly [key: string]: unknown;
  };
  /** The paths and their operations, by path template. */
  readonly paths: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Everything else: servers, security, components. */
  readonly [key: string]: unknown;
}

type Json = Record<string, unknown>;

const RATE_LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'] as const;

/** The model's schemas, by the name the interface gives them. */
const COMPONENTS = new Map<z.ZodMiniType, string>([
  [PetStatusSchema, 'PetStatus'],
  [NewPetSchema, 'NewPet'],
  [PetSchema, 'Pet'],
  [ErrorBodySchema, 'Error'],
]);

/** The operations of the table, with their names. */
const ENTRIES = Object.entries(OPERATIONS) as [OperationName, OperationSpec][];

/** The model's schemas as components, and each operation's query schema as JSON Schema. */
function componentSchemas(): {
  schemas: Record<string, Json>;
  queries: Partial<Record<OperationName, Json>>;
} {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of COMPONENTS) registry.add(schema, { id });
  for (const [name, { query }] of ENTRIES)
    if (query !== undefined) registry.add(query, { id: `${name} query` });
  // `input`: what the service accepts and sends, so a Pet may carry fields added later (the SDK strips
  // them), while a NewPet, a strict object, may not.
  const { schemas } = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === PetIdSchema) jsonSchema.format = 'int64';
    },
  }) as { schemas: Record<string, Json> };
  let cleaned = Object.fromEntries(
    Object.entries(schemas).map(([name, { $id, $schema, ...schema }]) => [name, schema]),
  );
  const queries: Partial<Record<OperationName, Json>> = {};
  for (const [name, { query }] of ENTRIES) {
    if (query === undefined) continue;
    const { [`${name} query`]: json = {}, ...rest } = cleaned;
    queries[name] = json;
    cleaned = rest;
  }
  describeFields(cleaned);
  return { schemas: cleaned, queries };
}

/** The field descriptions of the interface's tables, which the schemas keep as comments. */
const FIELD_DESCRIPTIONS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  NewPet: {
    name: "The animal's name.",
    categoryId: 'Identifier of the category the animal belongs to.',
    status: 'Availability status.',
  },
  Pet: {
    id: 'Unique identifier, assigned by the service on creation.',
    name: "The animal's name.",
    categoryId: 'Identifier of the category the animal belongs to.',
    status: 'Availability status.',
  },
  Error: {
    code: 'Machine-readable error code.',
    message: 'Human-readable description.',
    status: 'The HTTP status code of the response.',
  },
};

function describeFields(schemas: Record<string, Json>): void {
  for (const [name, fields] of Object.entries(FIELD_DESCRIPTIONS)) {
    const properties = schemas[name]?.properties as Record<string, Json> | undefined;
    for (const [field, description] of Object.entries(fields)) {
      const property = properties?.[field];
      if (property !== undefined) property.description = description;
    }
  }
}

/** A schema of the table as JSON Schema: a component by reference, an array of one, or inline. */
function schemaJson(schema: z.ZodMiniType): Json {
  const id = COMPONENTS.get(schema);
  if (id !== undefined) return ref('schemas', id);
  if (schema instanceof z.ZodMiniArray)
    return { type: 'array', items: schemaJson(schema._zod.def.element as z.ZodMiniType) };
  const { $schema, ...json } = z.toJSONSchema(schema, { io: 'input' }) as Json;
  return schema === PetIdSchema ? { ...json, format: 'int64' } : json;
}

function ref(kind: string, name: string): Json {
  return { $ref: `#/components/${kind}/${name}` };
}

function jsonContent(schema: Json): Json {
  return { 'application/json': { schema } };
}

function rateLimitHeaderRefs(): Json {
  return {
    ...Object.fromEntries(RATE_LIMIT_HEADERS.map((name) => [name, ref('headers', name)])),
    [REQUEST_ID_HEADER]: ref('headers', REQUEST_ID_HEADER),
  };
}

function header(description: string, schema: Json, required: boolean, choice?: string): Json {
  return { description, required, schema, ...(choice === undefined ? {} : { 'x-fake-choice': choice }) };
}

function errorResponse(description: string, codes: readonly string[], choice?: string): Json {
  return {
    description: `${description} Codes the fake sends: ${codes.join(', ')}.`,
    headers: rateLimitHeaderRefs(),
    content: jsonContent(ref('schemas', 'Error')),
    ...(choice === undefined ? {} : { 'x-fake-choice': choice }),
  };
}

/** What the interface says of an operation beyond its entry in the table, and what the fake chose. */
interface OperationText {
  readonly summary: string;
  readonly description?: string;
  readonly choice?: string;
  /** Each parameter's description, and what the fake chose for it. */
  readonly parameters: Readonly<Record<string, { description: string; choice?: string; default?: unknown }>>;
  readonly bodyChoice?: string;
  /** The success's description and headers beyond the rate-limit ones. */
  readonly success: string;
  readonly successHeaders?: Json;
  /** The operation's own error answers, by status (401 and 429 are every operation's). */
  readonly errors: Readonly<Record<string, Json>>;
}

/** The text of each operation of the table. */
const TEXTS: { readonly [Name in OperationName]: OperationText } = {
  listPets: {
    summary: 'List animals, optionally filtered by availability status.',
    description: 'The result is described as paginated; the interface shows no way to ask for another page.',
    choice:
      'The first page only, ordered by id; unknown query parameters are ignored; a parameter given twice is a 400 invalid_parameter.',
    parameters: {
      limit: {
        description: 'Maximum number of animals returned.',
        default: DEFAULT_PAGE_SIZE,
        choice:
          'A limit out of 1 to 100, or not a decimal integer, is a 400 invalid_parameter (the interface does not say).',
      },
      status: {
        description: 'Filters by availability status.',
        choice: 'A status not in PetStatus is a 400 invalid_parameter (the interface does not say).',
      },
    },
    success: 'A page of animals.',
    errors: {
      '400': errorResponse(
        'A bad limit or status.',
        [ERROR_CODES.invalidParameter],
        'The interface does not say how a bad limit or status is handled.',
      ),
    },
  },
  createPet: {
    summary: 'Add an animal.',
    parameters: {},
    bodyChoice: `An omitted status becomes ${DEFAULT_NEW_PET_STATUS} (the interface does not say); unknown fields are refused with a 400 invalid_body.`,
    success: 'The animal added, with the id the service assigned.',
    successHeaders: {
      Location: header(
        'The new animal: `<base URL>/pets/<id>`.',
        { type: 'string' },
        false,
        'The interface does not say; the fake sends it.',
      ),
    },
    errors: {
      '400': errorResponse('The body lacks required fields or has invalid values.', [
        ERROR_CODES.invalidBody,
        ERROR_CODES.invalidJson,
        ERROR_CODES.invalidContentType,
      ]),
    },
  },
  getPet: {
    summary: 'Get an animal.',
    parameters: { petId: { description: 'Identifier of the animal to return.' } },
    success: 'The animal.',
    errors: {
      '400': errorResponse(
        'A petId that is not an int64 integer.',
        [ERROR_CODES.invalidParameter],
        'The interface does not say how a petId that is not an integer is handled.',
      ),
      '404': errorResponse('No animal for the given petId.', [ERROR_CODES.notFound]),
    },
  },
};

/** The headers every answer of a deprecated operation carries. */
function deprecationHeaders({ sunset, successor }: NonNullable<OperationSpec['deprecated']>): Json {
  const { method, path } = OPERATIONS[successor as OperationName];
  return {
    Deprecation: header(
      'RFC 9745: when the operation was deprecated.',
      { type: 'string' },
      false,
      `The interface gives no deprecation date: the fake sends ${GET_PET_DEPRECATION.deprecation} (1 January 2026).`,
    ),
    Sunset: header(
      `RFC 8594: when the operation is removed (${sunset}).`,
      { type: 'string', const: new Date(sunset).toUTCString() },
      false,
    ),
    Link: header(
      `The successor: \`<base URL>${path}; rel="successor-version"\`.`,
      { type: 'string' },
      false,
      `The interface names ${method} ${path} (${successor}) as the replacement; the fake links to it.`,
    ),
  };
}

function parameter(
  place: 'path' | 'query',
  name: string,
  required: boolean,
  schema: Json,
  text: OperationText,
): Json {
  const { description, choice, default: fallback } = text.parameters[name] ?? {};
  return {
    name,
    in: place,
    required,
    ...(description === undefined ? {} : { description }),
    schema: fallback === undefined ? schema : { ...schema, default: fallback },
    ...(choice === undefined ? {} : { 'x-fake-choice': choice }),
  };
}

/** One operation of the table as OpenAPI describes it. */
function operationObject(name: OperationName, operation: OperationSpec, query: Json | undefined): Json {
  const text = TEXTS[name];
  const deprecated = operation.deprecated;
  const extraHeaders = deprecated === undefined ? {} : deprecationHeaders(deprecated);
  const withExtra = (response: Json): Json => ({
    ...response,
    headers: { ...(response.headers as Json), ...extraHeaders },
  });
  const parameters: Json[] = [];
  const pathParameter = /{(\w+)}/.exec(operation.path)?.[1];
  if (pathParameter !== undefined && operation.param !== undefined) {
    parameters.push(parameter('path', pathParameter, true, schemaJson(operation.param), text));
  }
  const required = (query?.required ?? []) as string[];
  for (const [field, schema] of Object.entries((query?.properties ?? {}) as Record<string, Json>)) {
    parameters.push(parameter('query', field, required.includes(field), schema, text));
  }
  const success: Json = {
    description: text.success,
    headers: { ...rateLimitHeaderRefs(), ...text.successHeaders, ...extraHeaders },
    ...(operation.response === undefined ? {} : { content: jsonContent(schemaJson(operation.response)) }),
  };
  return {
    operationId: name,
    summary: text.summary,
    ...(deprecated === undefined
      ? {}
      : {
          deprecated: true,
          'x-sunset': deprecated.sunset,
          description: `Deprecated: to be removed on ${deprecated.sunset}. Use ${deprecated.successor} (${OPERATIONS[deprecated.successor as OperationName].method} ${OPERATIONS[deprecated.successor as OperationName].path}) instead.`,
        }),
    ...(text.description === undefined ? {} : { description: text.description }),
    ...(text.choice === undefined ? {} : { 'x-fake-choice': text.choice }),
    ...(parameters.length === 0 ? {} : { parameters }),
    ...(operation.body === undefined
      ? {}
      : {
          requestBody: {
            required: true,
            content: jsonContent(schemaJson(operation.body)),
            ...(text.bodyChoice === undefined ? {} : { 'x-fake-choice': text.bodyChoice }),
          },
        }),
    responses: {
      [String(operation.status)]: success,
      ...Object.fromEntries(
        Object.entries(text.errors).map(([status, response]) => [status, withExtra(response)]),
      ),
      '401': ref('responses', 'Unauthorized'),
      '429': ref('responses', 'TooManyRequests'),
    },
  };
}

/** Every operation of the table, by path template and method. */
function paths(queries: Partial<Record<OperationName, Json>>): Record<string, Record<string, Json>> {
  const byPath: Record<string, Record<string, Json>> = {};
  for (const [name, operation] of ENTRIES) {
    byPath[operation.path] = {
      ...byPath[operation.path],
      [operation.method.toLowerCase()]: operationObject(name, operation, queries[name]),
    };
  }
  return byPath;
}

function build(): OpenApiDocument {
  const { schemas, queries } = componentSchemas();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Animal Store',
      version: '1.0.0',
      description:
        'The Animal Store service interface: list, add and read animals, with an API key as a bearer token. Generated from the zod schemas the SDK and its fake share. Where the interface is silent and the fake chose, the object says so in `x-fake-choice`.',
    },
    servers: [
      {
        url: '{baseUrl}',
        description: 'Production or staging; both end in /v1.',
        variables: { baseUrl: { default: DEFAULT_BASE_URL, description: 'The deployment, ending in /v1.' } },
      },
    ],
    security: [{ bearer: [] }],
    paths: paths(queries),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
      },
      schemas,
      headers: {
        'X-RateLimit-Limit': header('The limit in force for the caller.', { type: 'integer' }, true),
        'X-RateLimit-Remaining': header('Requests left in the current window.', { type: 'integer' }, true),
        'X-RateLimit-Reset': header(
          'Unix timestamp (seconds) at which the limit resets.',
          { type: 'integer' },
          true,
          'Rounded up to whole seconds; with several windows, the one with the fewest requests left.',
        ),
        'Retry-After': header(
          'How long to wait before retrying.',
          { type: 'string', pattern: '^\\d+$' },
          true,
          'The interface shows neither unit nor format: the fake sends whole seconds, at least 1.',
        ),
        [REQUEST_ID_HEADER]: header(
          'The id of the request, for support.',
          { type: 'string' },
          false,
          'The interface does not say; the fake names every answer.',
        ),
      },
      responses: {
        Unauthorized: errorResponse('Missing or invalid API key.', [ERROR_CODES.unauthorized]),
        TooManyRequests: {
          ...errorResponse(
            'The rate limit is exceeded; wait for Retry-After, then back off exponentially.',
            [ERROR_CODES.rateLimited, ERROR_CODES.apiKeyBanned],
            'The interface shows no 429 body: the fake sends an Error, rate_limited, or api_key_banned while the key is banned for sending requests while limited.',
          ),
          headers: { ...rateLimitHeaderRefs(), 'Retry-After': ref('headers', 'Retry-After') },
        },
      },
    },
  };
}

let cached: string | undefined;

/**
 * The Animal Store's OpenAPI 3.1 description, generated from the zod schemas the SDK and the fake
 * share: what the interface says, and, in `x-fake-choice`, what the fake chose where it is silent (the
 * 429 body, the status of a new animal, a `limit` out of range). The same document is shipped as
 * `animal-store-sdk/openapi.json` and served by the fake at `GET /__fake/openapi.json`. Each call
 * returns a fresh copy.
 *
 * @example
 * ```ts
 * import { petStoreOpenApi } from 'animal-store-sdk/testing';
 *
 * const document = petStoreOpenApi();
 * Object.keys(document.paths); // ['/pets', '/pets/{petId}']
 * ```
 */
export function petStoreOpenApi(): OpenApiDocument {
  cached ??= JSON.stringify(build());
  return JSON.parse(cached) as OpenApiDocument;
}
