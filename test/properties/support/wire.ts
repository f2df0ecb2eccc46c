import { expect } from 'vitest';
import type { Fetch } from '../../../src/index.js';
import { NewPetSchema } from '../../../src/index.js';
import { API_KEY, BASE_URL } from '../../client/setup.js';
import { STATUSES } from './oracle.js';

/** A fetch that keeps a copy of every request it is given, then lets `target` answer it. */
export function recordingFetch(target: Fetch) {
  const sent: Request[] = [];
  const fetch: Fetch = (input, init) => {
    const request = new Request(input, init);
    sent.push(request.clone());
    return target(request);
  };
  return { fetch, sent };
}

const base = new URL(`${BASE_URL}/`);

/** What one call should have put on the wire, beyond what every request needs. */
export interface ExpectedRequest {
  readonly method: 'GET' | 'POST';
  /** The path below the base URL: `/pets` or `/pets/<id>`. */
  readonly path: string;
  /** The query parameters, as strings. */
  readonly query?: Readonly<Record<string, string>>;
  /** The JSON body. */
  readonly body?: unknown;
  /** Headers that must arrive with these values (names in any case). */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Asserts that `request` is a well-formed Animal Store request on its own terms (method, path,
 * query, bearer token, JSON body) and that it carries what the call asked for.
 */
export async function expectWellFormed(request: Request, expected: ExpectedRequest): Promise<void> {
  const url = new URL(request.url);
  expect(url.origin).toBe(base.origin);
  expect(request.method).toBe(expected.method);
  expect(url.pathname).toMatch(/^\/v1\/pets(\/-?[0-9]+)?$/);
  expect(url.pathname).toBe(`${base.pathname.replace(/\/$/, '')}${expected.path}`);
  const id = /\/pets\/(.+)$/.exec(url.pathname)?.[1];
  if (id !== undefined) expect(Number.isSafeInteger(Number(id))).toBe(true);
  expect(url.hash).toBe('');

  const keys = [...url.searchParams.keys()];
  expect(new Set(keys).size).toBe(keys.length);
  for (const [name, value] of url.searchParams) {
    expect(['limit', 'status']).toContain(name);
    if (name === 'limit') {
      expect(value).toMatch(/^[0-9]+$/);
      expect(Number(value)).toBeGreaterThanOrEqual(1);
      expect(Number(value)).toBeLessThanOrEqual(100);
    } else {
      expect(STATUSES).toContain(value);
    }
  }
  expect(Object.fromEntries(url.searchParams)).toEqual(expected.query ?? {});

  expect(request.headers.get('authorization')).toBe(`Bearer ${API_KEY}`);
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    expect(request.headers.get(name)).toBe(value);
  }

  const text = await request.text();
  if (expected.method === 'GET') {
    expect(text).toBe('');
    return;
  }
  expect(request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase()).toBe('application/json');
  const body: unknown = JSON.parse(text);
  expect(NewPetSchema.safeParse(body).success).toBe(true);
  expect(body).toEqual(expected.body);
}
