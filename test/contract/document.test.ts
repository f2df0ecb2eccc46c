/**
 * The OpenAPI description: valid OpenAPI 3.1 by an independent validator, one path per route of the
 * fake, the fake's choices marked, the same document served by the control API, and each operation as
 * the table of operations has it.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it, onTestFinished } from 'vitest';
import { OPERATIONS, type OperationSpec } from '../../src/operations.js';
import { createFakePetStore, petStoreOpenApi } from '../../src/testing/index.js';
import { MODELLED_ROUTES } from '../../src/testing/rules/routes.js';

// biome-ignore lint/suspicious/noExplicitAny: a walk through a JSON document, checked by the assertions.
type Json = Record<string, any>;

const document = petStoreOpenApi() as Json;
const operation = (path: string, method: string): Json => document.paths[path][method];

describe('the OpenAPI description', () => {
  it('is valid OpenAPI 3.1 by @seriousme/openapi-schema-validator', async () => {
    const result = await new Validator().validate(petStoreOpenApi());

    expect(result).toEqual({ valid: true });
    expect(document.openapi).toBe('3.1.0');
  });

  it('has one operation for each route of the fake, and no other', () => {
    const operations = Object.entries(document.paths as Json).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );

    expect(operations.sort()).toEqual([...MODELLED_ROUTES].sort());
    expect(
      Object.values(document.paths as Json).flatMap((item: Json) =>
        Object.values(item).map((op: Json) => op.operationId),
      ),
    ).toEqual(Object.keys(OPERATIONS));
  });

  it('says what the interface says: the model, the limits, the key, the deprecation', () => {
    const { schemas } = document.components;

    expect(schemas.PetStatus).toEqual({ type: 'string', enum: ['available', 'pending', 'sold'] });
    expect(schemas.NewPet.required).toEqual(['name', 'categoryId']);
    expect(schemas.Pet.required).toEqual(['id', 'name', 'categoryId']);
    expect(schemas.Pet.properties.id).toMatchObject({ type: 'integer', format: 'int64' });
    expect(schemas.Error.required).toEqual(['code', 'message', 'status']);
    expect(operation('/pets', 'get').parameters[0]).toMatchObject({
      name: 'limit',
      in: 'query',
      schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    });
    expect(document.security).toEqual([{ bearer: [] }]);
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(operation('/pets/{petId}', 'get')).toMatchObject({ deprecated: true, 'x-sunset': '2030-12-05' });
    expect(Object.keys(operation('/pets', 'post').responses)).toEqual(['201', '400', '401', '429']);
    expect(document.components.headers['X-RateLimit-Remaining']).toMatchObject({ required: true });
  });

  it('marks where the fake chose: the 429 body, the status of a new animal, a limit out of range', () => {
    expect(document.components.responses.TooManyRequests['x-fake-choice']).toMatch(/shows no 429 body/);
    expect(operation('/pets', 'post').requestBody['x-fake-choice']).toMatch(
      /omitted status becomes available/,
    );
    expect(operation('/pets', 'get').parameters[0]['x-fake-choice']).toMatch(
      /out of 1 to 100.*400 invalid_parameter/,
    );
    expect(document.components.headers['Retry-After']['x-fake-choice']).toMatch(/whole seconds/);
  });

  it('is served by the fake at GET /__fake/openapi.json', async () => {
    const server = await createFakePetStore().listen();
    onTestFinished(() => server.close());
    const response = await fetch(`${server.controlUrl}/openapi.json`);

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual(petStoreOpenApi());
  });

  it('says of each operation what the table of operations says: its success status, body and deprecation', () => {
    for (const [name, entry] of Object.entries(OPERATIONS) as [string, OperationSpec][]) {
      const described = operation(entry.path, entry.method.toLowerCase());
      const success = described.responses[String(entry.status)];

      expect(described.operationId, name).toBe(name);
      expect(success, name).toBeDefined();
      expect(success.content === undefined, name).toBe(entry.response === undefined);
      expect(described.deprecated === true, name).toBe(entry.deprecated !== undefined);
    }
  });
});
