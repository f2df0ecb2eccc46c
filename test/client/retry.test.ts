import { HTTPError, NetworkError, TimeoutError } from 'ky';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  decideRetry,
  type FailedAttempt,
  type RequestedWait,
  requestedWait,
  withJitter,
} from '../../src/core/request/retry.js';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const headers = (init: Record<string, string>) => new Headers(init);

function httpError(status: number, init: Record<string, string> = {}): HTTPError {
  const request = new Request('https://api.test/v1/pets');
  const options = {} as ConstructorParameters<typeof HTTPError>[2];
  return new HTTPError(new Response(null, { status, headers: init }), request, options);
}

describe('requestedWait', () => {
  it('reads Retry-After as delta-seconds', () => {
    expect(requestedWait(headers({ 'Retry-After': '7' }), NOW)).toEqual({ ms: 7_000, reason: 'retry-after' });
  });

  it('reads Retry-After as an HTTP-date', () => {
    const at = new Date(NOW + 30_000).toUTCString();
    expect(requestedWait(headers({ 'Retry-After': at }), NOW)).toEqual({ ms: 30_000, reason: 'retry-after' });
  });

  it('treats an HTTP-date in the past as no wait', () => {
    const at = new Date(NOW - 30_000).toUTCString();
    expect(requestedWait(headers({ 'Retry-After': at }), NOW)).toEqual({ ms: 0, reason: 'retry-after' });
  });

  it('falls back to X-RateLimit-Reset when Retry-After is absent or garbage and the window is spent', () => {
    const spent = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW / 1000 + 12) };
    expect(requestedWait(headers(spent), NOW)).toEqual({ ms: 12_000, reason: 'reset' });
    expect(requestedWait(headers({ ...spent, 'Retry-After': 'soon' }), NOW)).toEqual({
      ms: 12_000,
      reason: 'reset',
    });
  });

  it('ignores X-RateLimit-Reset while the window has requests left', () => {
    const left = { 'X-RateLimit-Remaining': '7', 'X-RateLimit-Reset': String(NOW / 1000 + 12) };
    expect(requestedWait(headers(left), NOW)).toBeUndefined();
  });

  it('reads a spent window as the rate-limit reading does: a reset too large to be a time is none', () => {
    const spent = { 'X-RateLimit-Remaining': '00', 'X-RateLimit-Reset': String(NOW / 1000 + 12) };
    expect(requestedWait(headers(spent), NOW)).toEqual({ ms: 12_000, reason: 'reset' });
    const endless = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': '9'.repeat(20) };
    expect(requestedWait(headers(endless), NOW)).toBeUndefined();
  });

  it('keeps an enormous Retry-After finite', () => {
    expect(requestedWait(headers({ 'Retry-After': '9'.repeat(400) }), NOW)?.ms).toBe(Number.MAX_SAFE_INTEGER);
  });

  it('is undefined when nothing says how long', () => {
    expect(requestedWait(headers({}), NOW)).toBeUndefined();
    expect(requestedWait(headers({ 'Retry-After': '-5' }), NOW)).toBeUndefined();
    expect(requestedWait(headers({ 'Retry-After': '1.5' }), NOW)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles from 500 ms and caps at 8 s', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((retry) => backoffDelay(retry))).toEqual([
      500, 1000, 2000, 4000, 8000, 8000, 8000,
    ]);
  });

  it('keeps half of the step and randomizes the other half', () => {
    expect(withJitter(1000, () => 0)).toBe(500);
    expect(withJitter(1000, () => 0.999)).toBeCloseTo(999.5);
  });
});

describe('decideRetry', () => {
  const base = { maxRetryAfter: 60_000, retry: 1, random: () => 0.5 };
  /** The policy's question for `error`, with what its response asked for read as the transport reads it. */
  const ask = (method: string, error: Error, more: Partial<FailedAttempt> = {}): FailedAttempt => {
    const requested: RequestedWait | undefined =
      error instanceof HTTPError ? requestedWait(error.response.headers, NOW) : undefined;
    return { ...base, method, error, requested, ...more };
  };

  it('retries nothing once the retry budget is spent, saying so, and leaves what it never retries alone', () => {
    const spent = { budget: { left: false } };
    expect(decideRetry(ask('GET', httpError(503), spent))).toEqual({
      retry: false,
      why: expect.stringContaining("the client's retry budget is spent"),
      budgetSpent: true,
    });
    expect(decideRetry(ask('GET', httpError(404), spent))).toEqual({
      retry: false,
      why: '404',
    });
    expect(decideRetry(ask('GET', httpError(503), { budget: { left: true } })).retry).toBe(true);
  });

  it('retries a 429 for every method after exactly the wait the service asked for', () => {
    const error = httpError(429, { 'Retry-After': '3' });
    for (const method of ['GET', 'POST', 'PATCH']) {
      expect(decideRetry(ask(method, error))).toEqual({
        retry: true,
        why: '429',
        waitMs: 3000,
        reason: 'retry-after',
      });
    }
  });

  it('waits for X-RateLimit-Reset after a 429 without Retry-After whose window is spent', () => {
    const error = httpError(429, {
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': String(NOW / 1000 + 9),
    });
    expect(decideRetry(ask('GET', error))).toEqual({
      retry: true,
      why: '429',
      waitMs: 9000,
      reason: 'reset',
    });
  });

  it('stops a 429 whose requested wait exceeds maxRetryAfter', () => {
    const decision = decideRetry(ask('GET', httpError(429, { 'Retry-After': '3600' })));
    expect(decision).toEqual({ retry: false, why: expect.stringContaining('wait, beyond maxRetryAfter') });
  });

  it('backs off, with the jitter already applied, after a 429 that gives no wait', () => {
    expect(decideRetry(ask('POST', httpError(429), { retry: 2, random: () => 0 }))).toEqual({
      retry: true,
      why: '429 without a wait',
      waitMs: 500,
      reason: 'backoff',
    });
  });

  it('never repeats a POST after a server error, a timeout or a lost connection', () => {
    const request = new Request('https://api.test/v1/pets', { method: 'POST' });
    for (const error of [httpError(503), new TimeoutError(request), new NetworkError(request)]) {
      expect(decideRetry(ask('POST', error)).retry).toBe(false);
    }
  });

  it('backs off after a 503 without Retry-After instead of waiting for the rate-limit reset', () => {
    const spent = { 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(NOW / 1000 + 60) };
    expect(decideRetry(ask('GET', httpError(503, spent)))).toMatchObject({ retry: true, reason: 'backoff' });
    expect(decideRetry(ask('GET', httpError(503, { 'Retry-After': '2' })))).toEqual({
      retry: true,
      why: '503',
      waitMs: 2000,
      reason: 'retry-after',
    });
  });

  it('caps a 503 Retry-After at maxRetryAfter rather than giving up', () => {
    const decision = decideRetry(
      ask('GET', httpError(503, { 'Retry-After': '120' }), { maxRetryAfter: 5_000 }),
    );
    expect(decision).toMatchObject({ retry: true, waitMs: 5_000, reason: 'retry-after' });
  });

  it('backs off after server errors, timeouts and lost connections of every idempotent method', () => {
    const request = new Request('https://api.test/v1/pets');
    for (const method of ['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']) {
      for (const error of [httpError(502), new TimeoutError(request), new NetworkError(request)]) {
        expect(decideRetry(ask(method, error, { retry: 3, random: () => 1 }))).toMatchObject({
          retry: true,
          waitMs: 2000,
          reason: 'backoff',
        });
      }
    }
  });

  it('retries nothing but a 429 for POST and PATCH', () => {
    const request = new Request('https://api.test/v1/pets', { method: 'PATCH' });
    for (const method of ['POST', 'PATCH']) {
      for (const error of [httpError(500), new TimeoutError(request), new NetworkError(request)]) {
        expect(decideRetry(ask(method, error))).toEqual({
          retry: false,
          why: expect.stringContaining(`${method} is not idempotent`),
        });
      }
    }
  });

  it('does not retry statuses outside the list, for any method', () => {
    for (const status of [400, 404, 409, 413, 501]) {
      expect(decideRetry(ask('GET', httpError(status)))).toEqual({
        retry: false,
        why: String(status),
      });
    }
  });

  it('does not retry errors that are not about the transfer', () => {
    expect(decideRetry(ask('GET', new RangeError('bug'))).retry).toBe(false);
  });
});
