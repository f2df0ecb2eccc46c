import { setupServer } from 'msw/node';
import { expect, onTestFinished } from 'vitest';
import { type ErrorBody, ErrorBodySchema } from '../../../src/schemas.js';
import type { Fetch } from '../../../src/shared/fetch.js';
import type { FakePetStore } from '../../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../../src/testing/store/fake-store.js';

/** A running way into a fake store: where to send requests, and with which fetch. */
export interface Connection {
  /** The base URL to send requests to, ending in /v1. */
  readonly baseUrl: string;
  /** The fetch that reaches the store through this transport. */
  readonly fetch: Fetch;
}

/** One of the three ways a fake store is served. */
export interface Transport {
  readonly name: 'msw' | 'fetch' | 'http';
  /** Serves the store for the current test; stopped when the test finishes. */
  serve(store: FakePetStore): Promise<Connection>;
}

const globalFetch: Fetch = (input, init) => fetch(input, init);

export const mswTransport: Transport = {
  name: 'msw',
  async serve(store) {
    const server = setupServer(...store.handlers);
    server.listen({ onUnhandledFrame: 'error' });
    onTestFinished(() => server.close());
    return { baseUrl: store.baseUrl, fetch: globalFetch };
  },
};

export const fetchTransport: Transport = {
  name: 'fetch',
  async serve(store) {
    return { baseUrl: store.baseUrl, fetch: store.fetch };
  },
};

export const httpTransport: Transport = {
  name: 'http',
  async serve(store) {
    const server = await store.listen();
    onTestFinished(() => server.close());
    return { baseUrl: server.url, fetch: globalFetch };
  },
};

/** The three transports, for `describe.each`. */
export const transports: readonly Transport[] = [mswTransport, fetchTransport, httpTransport];

/** Request options with `Authorization: Bearer <key>` added. */
export function authed(init: RequestInit = {}, key: string = DEFAULT_API_KEY): RequestInit {
  const headers = new Headers(init.headers);
  headers.set('Authorization', `Bearer ${key}`);
  return { ...init, headers };
}

/** Request options for a JSON POST with a key. */
export function postJson(body: unknown, key: string = DEFAULT_API_KEY): RequestInit {
  return authed(
    { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
    key,
  );
}

/** Asserts an Error response with this status and code, and returns its body. */
export async function expectError(response: Response, status: number, code: string): Promise<ErrorBody> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json\b/);
  const body = ErrorBodySchema.parse(await response.json());
  expect(body).toMatchObject({ code, status });
  expect(body.message).not.toBe('');
  return body;
}

/** The X-RateLimit-* headers as numbers. */
export function rateLimit(response: Response): { limit: number; remaining: number; reset: number } {
  return {
    limit: Number(response.headers.get('x-ratelimit-limit')),
    remaining: Number(response.headers.get('x-ratelimit-remaining')),
    reset: Number(response.headers.get('x-ratelimit-reset')),
  };
}

/**
 * Resolves once `condition` holds, polling on `setImmediate` so that it works under fake timers that
 * fake `setTimeout` only; rejects after `timeoutMs` of real time.
 */
export async function until(condition: () => boolean, timeoutMs = 2_000): Promise<void> {
  const start = performance.now();
  while (!condition()) {
    if (performance.now() - start > timeoutMs) throw new Error(`Condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** A CORS preflight from a page on `origin`, asking to send `method` with `requestHeaders`. */
export function preflight(
  url: string,
  method: string,
  requestHeaders: string,
  origin = 'http://app.example',
): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': requestHeaders,
    },
  });
}
