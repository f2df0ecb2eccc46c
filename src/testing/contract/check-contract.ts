/**
 * Checking traffic against the OpenAPI description: the requests a store logged (what an application
 * sent), and an answer (what the fake sent back). The schemas are checked by ajv, loaded on first use;
 * the rest (which operation, which parameters, the key, the media type) reads the document.
 *
 * @module
 */
import { matchPattern } from '../rules/routes.js';
import type { RecordedRequest } from '../store/request-log.js';
import type { Ajv, AjvError, AjvValidate } from './ajv.js';
import { loadAjv } from './load-ajv.js';
import { type OpenApiDocument, petStoreOpenApi } from './openapi.js';

/**
 * One way a request (or an answer) strays from the contract.
 *
 * @example
 * ```ts
 * import type { ContractViolation } from 'animal-store-sdk/testing';
 *
 * const violation: ContractViolation = {
 *   request: 'POST /pets',
 *   index: 2,
 *   at: 'body/categoryId',
 *   problem: 'must be integer',
 * };
 * ```
 */
export interface ContractViolation {
  /** The request, as `METHOD /path` (relative to the base URL) with its query. */
  readonly request: string;
  /** Its place in the requests checked, from 1. */
  readonly index: number;
  /**
   * Where: `operation`, `query.limit`, `path.petId`, `header.authorization`, `header.content-type`,
   * `body` or `body/<field>`; for an answer, `status`, `response.header.<name>` or `response.body/<field>`.
   */
  readonly at: string;
  /** What is wrong, in words. Never the API key. */
  readonly problem: string;
}

type Json = Record<string, unknown>;

interface Operation {
  readonly template: string;
  readonly method: string;
  readonly definition: Json;
  readonly params: Record<string, string>;
}

/** One ajv per document, and its validators, compiled once per schema. */
const compiled = new WeakMap<object, { readonly ajv: Ajv; readonly validators: Map<string, AjvValidate> }>();

function validator(document: OpenApiDocument, schema: Json): AjvValidate {
  let entry = compiled.get(document);
  if (entry === undefined) {
    const Ajv = loadAjv();
    // Not strict: OpenAPI adds keywords of its own (`example`, `x-*`); `int64` is a number JSON can carry exactly.
    const ajv = new Ajv({
      strict: false,
      allErrors: true,
      formats: { int64: { type: 'number', validate: Number.isSafeInteger } },
    });
    entry = { ajv, validators: new Map() };
    compiled.set(document, entry);
  }
  const key = JSON.stringify(schema);
  let validate = entry.validators.get(key);
  if (validate === undefined) {
    // The schema beside the document's components, so that `#/components/schemas/...` resolves.
    validate = entry.ajv.compile({ ...schema, components: document.components });
    entry.validators.set(key, validate);
  }
  return validate;
}

/** An object of the document, following one `$ref` to `#/components/...`. */
function resolve(document: OpenApiDocument, value: unknown): Json {
  const object = (value ?? {}) as Json;
  const target = object.$ref;
  if (typeof target !== 'string' || !target.startsWith('#/')) return object;
  let current: unknown = document;
  for (const part of target.slice(2).split('/')) current = (current as Json | undefined)?.[part];
  return (current ?? {}) as Json;
}

function findOperation(
  document: OpenApiDocument,
  method: string,
  path: string,
): Operation | { readonly problem: string } {
  for (const [template, item] of Object.entries(document.paths)) {
    const params = matchPattern(template, path);
    if (params === undefined) continue;
    const definition = item[method.toLowerCase()];
    if (definition !== undefined) return { template, method, definition: definition as Json, params };
    const methods = Object.keys(item).map((name) => name.toUpperCase());
    return { problem: `the contract has no ${method} on ${template}; it has ${methods.join(', ')}` };
  }
  const paths = Object.keys(document.paths).join(', ');
  return { problem: `no path of the contract matches ${path || '/'}; it has ${paths}` };
}

function schemaErrors(validate: AjvValidate, value: unknown, at: string): [string, string][] {
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error: AjvError) => [
    `${at}${error.instancePath}`,
    describeError(error),
  ]);
}

function describeError(error: AjvError): string {
  const { additionalProperty, allowedValues } = error.params;
  if (typeof additionalProperty === 'string')
    return `has "${additionalProperty}", which the schema does not allow`;
  if (Array.isArray(allowedValues))
    return `must be one of ${allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return error.message ?? error.keyword;
}

/** A query or path value as its schema reads it: a number where the schema wants one and the text is one. */
function coerce(document: OpenApiDocument, value: string, schema: Json): unknown {
  const type = resolve(document, schema).type;
  if ((type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(value))
    return Number(value);
  return value;
}

function queryText(query: RecordedRequest['query']): string {
  const pairs = Object.entries(query).flatMap(([name, value]) =>
    (typeof value === 'string' ? [value] : value).map((one) => `${name}=${one}`),
  );
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** The problems of one request, as `[at, problem]` pairs. */
function requestProblems(document: OpenApiDocument, request: RecordedRequest): [string, string][] {
  const operation = findOperation(document, request.method, request.path);
  if ('problem' in operation) return [['operation', operation.problem]];
  const problems: [string, string][] = [];
  const { definition } = operation;

  const parameters = ((definition.parameters ?? []) as unknown[]).map((parameter) =>
    resolve(document, parameter),
  );
  const declaredQuery = new Set<string>();
  for (const parameter of parameters) {
    const name = String(parameter.name);
    const schema = (parameter.schema ?? {}) as Json;
    const at = `${String(parameter.in)}.${name}`;
    let given: string | readonly string[] | undefined;
    if (parameter.in === 'query') {
      declaredQuery.add(name);
      given = request.query[name];
    } else if (parameter.in === 'path') {
      const raw = operation.params[name];
      given = raw === undefined ? undefined : safeDecode(raw);
    } else {
      continue;
    }
    if (given === undefined) {
      if (parameter.required === true) problems.push([at, 'is required']);
      continue;
    }
    if (typeof given !== 'string') {
      problems.push([at, `is given ${given.length} times; the contract takes one value`]);
      continue;
    }
    problems.push(...schemaErrors(validator(document, schema), coerce(document, given, schema), at));
  }
  for (const name of Object.keys(request.query)) {
    if (!declaredQuery.has(name))
      problems.push([`query.${name}`, `is not a parameter of ${operation.method} ${operation.template}`]);
  }

  if (needsBearer(document, definition)) {
    const authorization = request.headers.authorization;
    if (authorization === undefined)
      problems.push(['header.authorization', 'is missing: the contract needs a bearer token']);
    else if (!/^bearer\s+\S+$/i.test(authorization))
      problems.push(['header.authorization', 'is not "Bearer <API key>"']);
  }

  const requestBody = resolve(document, definition.requestBody);
  const content = requestBody.content as Record<string, Json> | undefined;
  if (content === undefined) {
    if (request.body !== undefined)
      problems.push(['body', `${operation.method} ${operation.template} takes no body`]);
    return problems;
  }
  if (request.body === undefined) {
    if (requestBody.required === true) problems.push(['body', 'is required']);
    return problems;
  }
  const mediaType = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const media = mediaType === undefined ? undefined : content[mediaType];
  if (media === undefined) {
    problems.push([
      'header.content-type',
      `is ${mediaType === undefined ? 'missing' : `"${mediaType}"`}; the contract takes ${Object.keys(content).join(', ')}`,
    ]);
    return problems;
  }
  problems.push(...schemaErrors(validator(document, (media.schema ?? {}) as Json), request.body, 'body'));
  return problems;
}

function needsBearer(document: OpenApiDocument, definition: Json): boolean {
  const requirements = (definition.security ?? document.security ?? []) as Record<string, unknown>[];
  const schemes =
    (document.components as { securitySchemes?: Record<string, Json> } | undefined)?.securitySchemes ?? {};
  return requirements.some((requirement) =>
    Object.keys(requirement).some((name) => {
      const scheme = schemes[name];
      return scheme?.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer';
    }),
  );
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * Checks requests, as a fake store logs them, against the Animal Store's OpenAPI description: each
 * must be an operation of the contract (no path or method it lacks), with its parameters of the right
 * type and range (`limit` from 1 to 100, a `status` of PetStatus, an int64 `petId`, no parameter it does
 * not take), the API key as a bearer token, and the body its operation takes (`Content-Type:
 * application/json` and a valid NewPet). Returns every violation found, in the order of the requests;
 * none means the requests keep the contract. The schemas are checked with ajv, an optional peer
 * dependency (`npm install --save-dev ajv`), loaded on the first call; it runs in Node, Bun and Deno.
 *
 * @param requests - `store.requests`, or `await remote.requests` of a fake in another process.
 * @param document - The description to check against. Default {@link petStoreOpenApi}.
 * @throws Error when ajv is not installed.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { checkContract, createFakePetStore } from 'animal-store-sdk/testing';
 * import { expect, it } from 'vitest';
 *
 * it('sends only what the service takes', async () => {
 *   const store = createFakePetStore();
 *   const client = new PetStoreClient({ apiKey: 'test-api-key', baseUrl: store.baseUrl, fetch: store.fetch });
 *   await client.createPet({ name: 'Rex', categoryId: 1 });
 *   await client.listPets({ status: 'available' });
 *
 *   expect(checkContract(store.requests)).toEqual([]);
 * });
 * ```
 */
export function checkContract(
  requests: readonly RecordedRequest[],
  document: OpenApiDocument = petStoreOpenApi(),
): ContractViolation[] {
  return requests.flatMap((request, position) => {
    const shown = `${request.method} ${request.path || '/'}${queryText(request.query ?? {})}`;
    return requestProblems(document, { ...request, query: request.query ?? {} }).map(([at, problem]) => ({
      request: shown,
      index: position + 1,
      at,
      problem,
    }));
  });
}

/** An answer, as {@link checkResponse} reads it. */
export interface ContractAnswer {
  /** The request's method, upper case. */
  readonly method: string;
  /** The request's path relative to the base URL. */
  readonly path: string;
  readonly status: number;
  readonly headers: Headers;
  /** The body parsed as JSON, or `undefined` when there is none. */
  readonly body: unknown;
}

/**
 * The problems of one answer against the contract: a status its operation lists, the headers the
 * response requires, and a body of its schema. For the suite that checks the fake's answers.
 */
export function checkResponse(
  answer: ContractAnswer,
  document: OpenApiDocument = petStoreOpenApi(),
): [string, string][] {
  const operation = findOperation(document, answer.method, answer.path);
  if ('problem' in operation) return [['operation', operation.problem]];
  const responses = (operation.definition.responses ?? {}) as Record<string, unknown>;
  const declared = responses[String(answer.status)] ?? responses.default;
  if (declared === undefined) {
    return [
      [
        'status',
        `${answer.status} is not an answer of ${operation.method} ${operation.template}; it lists ${Object.keys(responses).join(', ')}`,
      ],
    ];
  }
  const response = resolve(document, declared);
  const problems: [string, string][] = [];
  for (const [name, value] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
    const header = resolve(document, value);
    const given = answer.headers.get(name);
    const at = `response.header.${name}`;
    if (given === null) {
      if (header.required === true) problems.push([at, 'is missing']);
      continue;
    }
    const schema = (header.schema ?? {}) as Json;
    problems.push(...schemaErrors(validator(document, schema), coerce(document, given, schema), at));
  }
  const content = response.content as Record<string, Json> | undefined;
  if (content === undefined) return problems;
  const mediaType = answer.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase() ?? '';
  const media = content[mediaType];
  if (media === undefined) {
    problems.push([
      'response.header.content-type',
      `is "${mediaType}"; the contract has ${Object.keys(content).join(', ')}`,
    ]);
    return problems;
  }
  problems.push(
    ...schemaErrors(validator(document, (media.schema ?? {}) as Json), answer.body, 'response.body'),
  );
  return problems;
}
