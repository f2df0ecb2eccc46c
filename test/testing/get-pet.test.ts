import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { GET_PET_DEPRECATION } from '../../src/testing/rules/operations.js';
import { authed, expectError, transports } from './support/transports.js';

const rex = { id: 1, name: 'Rex', categoryId: 1, status: 'available' } as const;

describe.each(transports)('GET /pets/{petId} over $name', (transport) => {
  async function get(petId: string) {
    const { baseUrl, fetch } = await transport.serve(createFakePetStore({ pets: [rex] }));
    return { baseUrl, response: await fetch(`${baseUrl}/pets/${petId}`, authed()) };
  }

  function expectDeprecation(response: Response, baseUrl: string) {
    expect(response.headers.get('deprecation')).toBe('@1767225600');
    expect(response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(new Date(response.headers.get('sunset') as string).toISOString()).toBe('2030-12-05T00:00:00.000Z');
    expect(response.headers.get('link')).toBe(`<${baseUrl}/pets>; rel="successor-version"`);
    expect(GET_PET_DEPRECATION).toEqual({
      deprecation: '@1767225600',
      sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
    });
  }

  it('returns the pet, with the deprecation headers', async () => {
    const { baseUrl, response } = await get('1');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual(rex);
    expectDeprecation(response, baseUrl);
  });

  it.each(['2', '0', '-1', '9223372036854775807'])('answers the unknown id %s with 404', async (petId) => {
    const { baseUrl, response } = await get(petId);
    const body = await expectError(response, 404, 'not_found');
    expect(body.message).toContain(petId);
    expectDeprecation(response, baseUrl);
  });

  it.each(['abc', '1.5', '1e3', '9223372036854775808', '%20'])(
    'answers the non-integer id %s with 400',
    async (petId) => {
      const { baseUrl, response } = await get(petId);
      const body = await expectError(response, 400, 'invalid_parameter');
      expect(body.message).toContain('"petId"');
      expectDeprecation(response, baseUrl);
    },
  );
});
