import { describe, expect, it } from 'vitest';
import { OPERATIONS } from '../../src/operations.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { MODELLED_ROUTES } from '../../src/testing/rules/routes.js';
import { authed, expectError, postJson, transports } from './support/transports.js';

/** The methods the table has an operation for on a path template, as `Allow` lists them. */
const allowOn = (template: string): string =>
  Object.values(OPERATIONS)
    .filter(({ path }) => path === template)
    .map(({ method }) => method)
    .join(', ');

/** For each path of the table (pet 1 for its parameter), each method it has no operation for, and its Allow. */
const UNROUTED = [...new Set(Object.values(OPERATIONS).map(({ path }) => path))].flatMap((template) =>
  ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']
    .filter((method) => !allowOn(template).split(', ').includes(method))
    .map((method) => [method, template.replace(/{\w+}/, '1'), allowOn(template)]),
);

describe.each(transports)('routing over $name', (transport) => {
  it.each([
    ['GET', '/store/orders'],
    ['POST', '/store/orders'],
    ['GET', '/store'],
    ['GET', ''],
    ['GET', '/'],
    ['GET', '/pet'],
    ['GET', '/pets/1/photos'],
    ['GET', '/categories'],
  ])('answers %s %s with a 404 not_modelled Error naming the modelled routes', async (method, path) => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    const body = await expectError(await fetch(`${baseUrl}${path}`, authed({ method })), 404, 'not_modelled');
    expect(body.message).toContain(`does not model ${method} ${path || '/'}`);
    expect(body.message).toContain(`it models ${MODELLED_ROUTES.join(', ')}`);
    expect(store.requests.map((request) => request.unmodelled)).toEqual([true]);
  });

  it.each([...UNROUTED, ['PUT', '/pets/abc', allowOn('/pets/{petId}')]])(
    'answers %s %s with 405 and Allow: %s',
    async (method, path, allow) => {
      const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
      const { baseUrl, fetch } = await transport.serve(store);
      const response = await fetch(`${baseUrl}${path}`, authed({ method }));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe(allow);
      if (method !== 'HEAD') await expectError(response, 405, 'method_not_allowed');
      expect(store.pets).toHaveLength(1);
    },
  );

  it('ignores a trailing slash', async () => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    expect((await fetch(`${baseUrl}/pets/`, authed())).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets/1/`, authed())).status).toBe(200);
    expect((await fetch(`${baseUrl}/pets/`, postJson({ name: 'Tom', categoryId: 1 }))).status).toBe(201);
  });

  it('serves a base URL given with a trailing slash, and any path before /v1', async () => {
    const store = createFakePetStore({ baseUrl: 'https://staging.example.com/api/v1/' });
    expect(store.baseUrl).toBe('https://staging.example.com/api/v1');
    const { baseUrl, fetch } = await transport.serve(store);
    expect(baseUrl).toMatch(/\/api\/v1$/);
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
    expect(store.requests[0]?.path).toBe('/pets');
  });
});
