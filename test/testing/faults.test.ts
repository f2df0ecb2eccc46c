import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_DELAY_MS } from '../../src/testing/disruptions/delay-range.js';
import { createFakePetStore, type FaultOptions } from '../../src/testing/index.js';
import { authed, expectError, rateLimit, transports, until } from './support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

describe.each(transports)('injected faults over $name', (transport) => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers the matching requests with the fault, `times` times, then normally', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, times: 2, match: { method: 'GET', path: '/pets' } });

    expect((await fetch(`${baseUrl}/pets/1`, authed())).status).toBe(404);
    expect((await fetch(`${baseUrl}/pets`, authed({ method: 'POST' }))).status).toBe(400);
    await expectError(await fetch(`${baseUrl}/pets`, authed()), 503, 'service_unavailable');
    await expectError(await fetch(`${baseUrl}/pets?limit=5`, authed()), 503, 'service_unavailable');
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
  });

  it('applies once by default, in the order injected', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 500 });
    store.injectFault({ status: 502 });
    const statuses = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await fetch(`${baseUrl}/pets`, authed())).status);
    expect(statuses).toEqual([500, 502, 200]);
  });

  it('matches a path pattern and a method in any case', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({
      status: 500,
      times: Number.POSITIVE_INFINITY,
      match: { method: 'get', path: /^\/pets\/\d+$/ },
    });
    expect((await fetch(`${baseUrl}/pets/1`, authed())).status).toBe(500);
    expect((await fetch(`${baseUrl}/pets/2`, authed())).status).toBe(500);
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
    store.clearFaults();
    expect((await fetch(`${baseUrl}/pets/1`, authed())).status).toBe(404);
  });

  it('comes before authentication and uses no quota, but carries the key headers', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, authed());
    store.injectFault({ status: 503, times: 2 });
    const withoutKey = await fetch(`${baseUrl}/pets`);
    await expectError(withoutKey, 503, 'service_unavailable');
    expect(rateLimit(withoutKey)).toEqual({ limit: 60, remaining: 60, reset: T0 / 1000 + 60 });
    const withKey = await fetch(`${baseUrl}/pets`, authed());
    expect(rateLimit(withKey)).toEqual({ limit: 60, remaining: 59, reset: T0 / 1000 + 60 });
    expect(rateLimit(await fetch(`${baseUrl}/pets`, authed())).remaining).toBe(58);
  });

  it('models a 429 with a chosen Retry-After', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 429, headers: { 'Retry-After': '7', 'X-RateLimit-Remaining': '0' } });
    const response = await fetch(`${baseUrl}/pets`, authed());
    await expectError(response, 429, 'rate_limited');
    expect(response.headers.get('retry-after')).toBe('7');
    expect(response.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('sends a custom body and headers', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    const html = '<html><body><h1>502 Bad Gateway</h1></body></html>';
    store.injectFault({
      status: 502,
      headers: { 'Content-Type': 'text/html', 'X-Served-By': 'lb-1' },
      body: html,
    });
    store.injectFault({ status: 200, body: { unexpected: true } });
    store.injectFault({ status: 500, body: 'oops' });

    const htmlResponse = await fetch(`${baseUrl}/pets`, authed());
    expect(htmlResponse.status).toBe(502);
    expect(htmlResponse.headers.get('content-type')).toBe('text/html');
    expect(htmlResponse.headers.get('x-served-by')).toBe('lb-1');
    expect(await htmlResponse.text()).toBe(html);

    const json = await fetch(`${baseUrl}/pets`, authed());
    expect(json.headers.get('content-type')).toBe('application/json');
    expect(await json.json()).toEqual({ unexpected: true });

    const text = await fetch(`${baseUrl}/pets`, authed());
    expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await text.text()).toBe('oops');
  });

  it('fails the request like a network error', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ networkError: true, match: { path: '/pets' } });
    const failure = await fetch(`${baseUrl}/pets`, authed()).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).message).toBe('fetch failed');
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
    expect(store.requests).toHaveLength(2);
  });

  it('delays the answer by delay, on the fake clock', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    store.injectFault({ status: 503, delay: 5_000 });
    store.injectFault({ delay: 5_000 });

    for (const [index, expected] of [503, 200].entries()) {
      let settled = false;
      const pending = fetch(`${baseUrl}/pets`, authed()).then((response) => {
        settled = true;
        return response;
      });
      await until(() => store.requests.length === index + 1);
      await vi.advanceTimersByTimeAsync(4_999);
      expect(settled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await until(() => settled);
      expect((await pending).status).toBe(expected);
    }
  });

  it('lets the request signal abort a delay', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, delay: 60_000 });
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/pets`, authed({ signal: controller.signal }));
    await until(() => store.requests.length === 1);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
  });

  it('records faulted requests', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503 });
    await fetch(`${baseUrl}/pets?limit=3`, authed());
    expect(store.requests).toMatchObject([{ method: 'GET', path: '/pets' }]);
  });
});

describe('injectFault checks its options', () => {
  const bad: Array<[string, FaultOptions]> = [
    ['nothing to do', {}],
    ['only a match', { match: { path: '/pets' } }],
    ['a status below 200', { status: 101 }],
    ['a status above 599', { status: 600 }],
    ['a fractional status', { status: 503.5 }],
    ['a status with a network error', { status: 503, networkError: true }],
    ['a body without a status', { body: 'x' }],
    ['headers without a status', { headers: { 'Retry-After': '1' } }],
    ['a negative delay', { delay: -1 }],
    ['an infinite delay', { delay: Number.POSITIVE_INFINITY }],
    ['a fractional delay', { delay: 1.5 }],
    ['a delay over MAX_DELAY_MS', { delay: MAX_DELAY_MS + 1 }],
    ['a delay no timer holds', { delay: 2 ** 31 }],
    ['zero times', { status: 503, times: 0 }],
    ['fractional times', { status: 503, times: 1.5 }],
  ];

  it.each(bad)('rejects %s', (_name, options) => {
    expect(() => createFakePetStore().injectFault(options)).toThrow(/injectFault/);
  });

  it('bounds delay as Prefer: delay is bounded, saying the range', () => {
    const store = createFakePetStore();
    expect(() => store.injectFault({ delay: 1e12 })).toThrow(
      new RangeError('injectFault: delay must be whole milliseconds from 0 to 300000, got 1000000000000'),
    );
    store.injectFault({ delay: MAX_DELAY_MS });
    store.injectFault({ delay: 0 });
  });
});
