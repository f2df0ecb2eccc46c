/**
 * The fake's answers against the OpenAPI description, checked with ajv: every status an operation
 * gives is one the description lists, with the headers it requires and a body of its schema, over
 * each way into the store.
 */
import { describe, expect, it } from 'vitest';
import { type ContractAnswer, checkResponse } from '../../src/testing/contract/check-contract.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { transports } from '../testing/support/transports.js';

const KEY = { Authorization: `Bearer ${DEFAULT_API_KEY}` };
const JSON_KEY = { ...KEY, 'Content-Type': 'application/json' };

/** Requests that reach every answer the operations give, and what each is answered. */
const EXCHANGES: readonly { path: string; init?: RequestInit; status: number }[] = [
  { path: '/pets', init: { headers: KEY }, status: 200 },
  { path: '/pets?limit=1&status=available', init: { headers: KEY }, status: 200 },
  { path: '/pets?limit=0', init: { headers: KEY }, status: 400 },
  { path: '/pets?status=lost', init: { headers: KEY }, status: 400 },
  { path: '/pets', status: 401 },
  { path: '/pets', init: { headers: { Authorization: 'Bearer wrong' } }, status: 401 },
  {
    path: '/pets',
    init: { method: 'POST', headers: JSON_KEY, body: '{"name":"Tom","categoryId":2}' },
    status: 201,
  },
  {
    path: '/pets',
    init: { method: 'POST', headers: JSON_KEY, body: '{"name":"Tom","categoryId":2,"status":"sold"}' },
    status: 201,
  },
  { path: '/pets', init: { method: 'POST', headers: JSON_KEY, body: '{"name":"Tom"}' }, status: 400 },
  { path: '/pets', init: { method: 'POST', headers: JSON_KEY, body: '{' }, status: 400 },
  { path: '/pets', init: { method: 'POST', headers: KEY, body: 'Tom' }, status: 400 },
  {
    path: '/pets',
    init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' },
    status: 401,
  },
  { path: '/pets/1', init: { headers: KEY }, status: 200 },
  { path: '/pets/99', init: { headers: KEY }, status: 404 },
  { path: '/pets/abc', init: { headers: KEY }, status: 400 },
  { path: '/pets/1', status: 401 },
];

async function answerOf(response: Response, method: string, path: string): Promise<ContractAnswer> {
  const text = await response.text();
  return {
    method,
    path: path.split('?')[0] ?? path,
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : JSON.parse(text),
  };
}

describe.each(transports)('the fake’s answers over $name', (transport) => {
  it('keep the contract: listed statuses, required headers, bodies of their schema', async () => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    const problems: unknown[] = [];
    for (const { path, init, status } of EXCHANGES) {
      const response = await fetch(`${baseUrl}${path}`, init);
      expect(response.status, path).toBe(status);
      const found = checkResponse(await answerOf(response, init?.method ?? 'GET', path));
      if (found.length > 0) problems.push({ request: `${init?.method ?? 'GET'} ${path}`, status, found });
    }

    expect(problems).toEqual([]);
  });

  it('keep the contract when rate limited and when banned: a 429 with Retry-After and an Error', async () => {
    const store = createFakePetStore({
      apiKeys: { tiny: { perMinute: 1, perDay: 100 } },
      ban: { maxRequestsWhileLimited: 1, duration: 60_000 },
    });
    const { baseUrl, fetch } = await transport.serve(store);
    const headers = { Authorization: 'Bearer tiny' };
    const statuses: number[] = [];
    const codes: unknown[] = [];
    for (let sent = 0; sent < 3; sent++) {
      const response = await fetch(`${baseUrl}/pets`, { headers });
      statuses.push(response.status);
      const answer = await answerOf(response, 'GET', '/pets');
      codes.push((answer.body as { code?: string }).code);
      expect(checkResponse(answer)).toEqual([]);
    }

    expect(statuses).toEqual([200, 429, 429]);
    expect(codes).toEqual([undefined, 'rate_limited', 'api_key_banned']);
  });
});

describe('checkResponse', () => {
  it('names a status the operation does not list, a missing required header and a body off its schema', () => {
    const headers = new Headers({ 'Content-Type': 'application/json', 'X-RateLimit-Limit': '60' });

    expect(checkResponse({ method: 'GET', path: '/pets', status: 503, headers, body: {} })).toEqual([
      ['status', '503 is not an answer of GET /pets; it lists 200, 400, 401, 429'],
    ]);
    expect(
      checkResponse({ method: 'GET', path: '/pets/1', status: 200, headers, body: { id: 'one' } }),
    ).toEqual([
      ['response.header.X-RateLimit-Remaining', 'is missing'],
      ['response.header.X-RateLimit-Reset', 'is missing'],
      ['response.body', "must have required property 'name'"],
      ['response.body', "must have required property 'categoryId'"],
      ['response.body/id', 'must be integer'],
    ]);
  });
});
