import { HTTPError, NetworkError, TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import { backoffDelay, requestedWait, retryDecision, shouldRetry, withJitter } from '../../src/core/retry.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const headers = (init: Record<string, string>) => new Headers(init);

function httpError(status: number, init: Record<string, string> = {}): HTTPError {
  const request = new Request('https://api.test/v1/pets');
  const options = {} as ConstructorParameters<typeof HTTPError>[2];
  return new HTTPError(new Response(null, { status, headers: init }), request, options);
}

describe('requestedWait', () => {
  it('reads Retry-After as delta-seconds', () => {
    expect(requestedWait(headers({ 'Retry-After': '7' }), NOW)).toBe(7_000);
  });

  it('reads Retry-After as an HTTP-date', () => {
    const at = new Date(NOW + 30_000).toUTCString();
    expect(requestedWait(headers({ 'Retry-After': at }), NOW)).toBe(30_000);
  });

  it('treats an HTTP-date in the past as no wait', () => {
    const at = new Date(NOW - 30_000).toUTCString();
    expect(requestedWait(headers({ 'Retry-After': at }), NOW)).toBe(0);
  });

  it('falls back to X-RateLimit-Reset when Retry-After is absent or garbage and the window is spent', () => {
    const spent = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW / 1000 + 12) };
    expect(requestedWait(headers(spent), NOW)).toBe(12_000);
    expect(requestedWait(headers({ ...spent, 'Retry-After': 'soon' }), NOW)).toBe(12_000);
  });

  it('ignores X-RateLimit-Reset while the window has requests left', () => {
    const left = { 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': String(NOW / 1000 + 12) };
    expect(requestedWait(headers(left), NOW)).toBeUndefined();
  });

  it('keeps an enormous Retry-After finite', () => {
    expect(requestedWait(headers({ 'Retry-After': '9'.repeat(400) }), NOW)).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('is undefined when nothing says how long', () => {
    expect(requestedWait(headers({}), NOW)).toBeUndefined();
    expect(requestedWait(headers({ 'Retry-After': '-5' }), NOW)).toBeUndefined();
    expect(requestedWait(headers({ 'Retry-After': '1.5' }), NOW)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from 500 ms and caps at 8 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(backoffDelay)).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('keeps half of the step and randomizes the other half', () => {
    expect(withJitter(1000, () => 0)).toBe(500);
    expect(withJitter(1000, () => 0.999)).toBeCloseTo(999.5);
  });
});

describe('shouldRetry', () => {
  const base = { maxRetryWait: 60_000, now: NOW };

  it('leaves a 429 to ky for every method while the wait is acceptable', () => {
    const error = httpError(429, { 'Retry-After': '3' });
    expect(shouldRetry({ ...base, method: 'GET', error })).toBeUndefined();
    expect(shouldRetry({ ...base, method: 'POST', error })).toBeUndefined();
  });

  it('stops a 429 whose requested wait exceeds maxRetryWait', () => {
    const error = httpError(429, { 'Retry-After': '3600' });
    expect(shouldRetry({ ...base, method: 'GET', error })).toBe(false);
  });

  it('never repeats a POST after a server error, a timeout or a lost connection', () => {
    const request = new Request('https://api.test/v1/pets', { method: 'POST' });
    for (const error of [httpError(503), new TimeoutError(request), new NetworkError(request)]) {
      expect(shouldRetry({ ...base, method: 'POST', error })).toBe(false);
    }
  });

  it('backs off after a 503 without Retry-After instead of waiting for the rate-limit reset', () => {
    const error = httpError(503, { 'X-RateLimit-Reset': String(NOW / 1000 + 60) });
    expect(shouldRetry({ ...base, method: 'GET', error })).toBe(true);
    expect(
      shouldRetry({ ...base, method: 'GET', error: httpError(503, { 'Retry-After': '2' }) }),
    ).toBeUndefined();
  });

  it('backs off after server errors, timeouts and lost connections of every idempotent method', () => {
    const request = new Request('https://api.test/v1/pets');
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
      for (const error of [httpError(502), new TimeoutError(request), new NetworkError(request)]) {
        expect(shouldRetry({ ...base, method, error })).toBe(true);
      }
    }
  });

  it('retries a 429 for every method, and nothing else for POST and PATCH', () => {
    const request = new Request('https://api.test/v1/pets', { method: 'PATCH' });
    for (const method of ['POST', 'PATCH']) {
      expect(shouldRetry({ ...base, method, error: httpError(429, { 'Retry-After': '1' }) })).toBeUndefined();
      for (const error of [httpError(500), new TimeoutError(request), new NetworkError(request)]) {
        expect(retryDecision({ ...base, method, error })).toEqual({
          retry: false,
          reason: expect.stringContaining(`${method} is not idempotent`),
        });
      }
    }
  });

  it('does not retry statuses outside the list, for any method', () => {
    for (const status of [400, 404, 409, 413, 501]) {
      expect(retryDecision({ ...base, method: 'GET', error: httpError(status) })).toEqual({
        retry: false,
        reason: `${status} is not retried`,
      });
    }
  });

  it('says how long the service asked to wait', () => {
    expect(retryDecision({ ...base, method: 'POST', error: httpError(429, { 'Retry-After': '3' }) })).toEqual(
      {
        retry: true,
        reason: '429',
        timing: 'requested',
        waitMs: 3000,
      },
    );
  });

  it('does not retry errors that are not about the transfer', () => {
    expect(shouldRetry({ ...base, method: 'GET', error: new RangeError('bug') })).toBe(false);
  });
});
