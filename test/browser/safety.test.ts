import { describe, expect, inject, it, vi } from 'vitest';
import { APIConnectionError, PetStoreClient, PetStoreError, RateLimitError } from '../../src/index.js';

const BASE_URL = 'https://api.animal-store.test/v1';
const KEY = 'sk-browser-guard-0123456789';
const service = inject('corsService');

/** Builds a client in a module worker started by this page, and says what happened there. */
function buildInWorker(options: { apiKey: string | null; dangerouslyAllowBrowser: boolean }) {
  const worker = new Worker(new URL('./support/guard-worker.ts', import.meta.url), { type: 'module' });
  return new Promise<{ built: boolean; name?: string; message?: string }>((resolve, reject) => {
    worker.onmessage = (event) => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event) => reject(new Error(event.message));
    worker.postMessage(options);
  });
}

describe('in a browser, the client guards the API key', () => {
  it('refuses a string key with an error that says why and what to do instead', () => {
    const build = () => new PetStoreClient({ apiKey: KEY, baseUrl: BASE_URL });
    expect(build).toThrow(PetStoreError);
    expect(build).toThrow(/in a browser is readable by anyone/);
    expect(build).toThrow(/apiKey: null behind a backend that adds it,/);
    expect(build).toThrow(/an apiKey function that fetches a short-lived key/);
    expect(build).toThrow(/dangerouslyAllowBrowser: true/);
    expect(build).toThrow(/docs\/browser\.md/);
    const error = (() => {
      try {
        build();
      } catch (caught) {
        return caught as Error;
      }
    })();
    expect(`${error?.message} ${JSON.stringify(error)} ${error?.stack}`).not.toContain(KEY);
  });

  it('builds with dangerouslyAllowBrowser: true, with a key function, or with no key', () => {
    expect(
      new PetStoreClient({ apiKey: KEY, baseUrl: BASE_URL, dangerouslyAllowBrowser: true }).baseUrl,
    ).toBe(`${BASE_URL}/`);
    expect(() => new PetStoreClient({ apiKey: async () => KEY, baseUrl: BASE_URL })).not.toThrow();
    expect(() => new PetStoreClient({ apiKey: null, baseUrl: BASE_URL })).not.toThrow();
  });

  it.for([
    ['Deno', '<div id="Deno"></div>'],
    ['EdgeRuntime', '<img name="EdgeRuntime">'],
    ['Deno', '<form name="Deno"><input name="version"></form>'],
    ['Deno', '<iframe name="Deno" srcdoc="<iframe name=version></iframe>"></iframe>'],
    ['process', '<div id="process"></div>'],
  ])('refuses a string key on a page whose markup makes a global %s: %s', ([name, markup]) => {
    const host = document.createElement('div');
    host.innerHTML = markup as string;
    document.body.append(host);
    try {
      expect(Reflect.get(globalThis, name as string)).toBeDefined();
      expect(() => new PetStoreClient({ apiKey: KEY, baseUrl: BASE_URL })).toThrow(/dangerouslyAllowBrowser/);
    } finally {
      host.remove();
    }
  });

  it('guards a worker the page started the same way', async () => {
    expect(await buildInWorker({ apiKey: KEY, dangerouslyAllowBrowser: false })).toMatchObject({
      built: false,
      name: 'PetStoreError',
      message: expect.stringMatching(/dangerouslyAllowBrowser/),
    });
    expect(await buildInWorker({ apiKey: KEY, dangerouslyAllowBrowser: true })).toEqual({ built: true });
    expect(await buildInWorker({ apiKey: null, dangerouslyAllowBrowser: false })).toEqual({ built: true });
  });
});

describe('a service on another origin, through CORS', () => {
  /** A client of the service under `path`, with a spy as its logger and no retries. */
  function serviceClient(path: string, headers: Record<string, string> = {}) {
    const logger = { warn: vi.fn<(message: string) => void>() };
    const client = new PetStoreClient({
      apiKey: null,
      baseUrl: `${service}${path}`,
      logger,
      maxRetries: 0,
      headers,
    });
    return { client, logger };
  }

  it('that hides its rate-limit headers from the page: a 429 warns once that pacing is off, naming the header to set', async () => {
    const { client, logger } = serviceClient('/hidden/v1');
    const first = await client.listPets().catch((error: unknown) => error);
    await client.listPets().catch(() => undefined);

    expect(first).toBeInstanceOf(RateLimitError);
    expect((first as RateLimitError).retryAfterMs).toBeNull();
    expect(client.rateLimit).toBeNull();
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(
      /^animal-store-sdk: GET \/pets: CORS hides the rate-limit headers, so pacing is off;/,
    );
    expect(logger.warn.mock.calls[0]?.[0]).toContain(
      'the service must list them in Access-Control-Expose-Headers (docs/browser.md#cors).',
    );
  });

  it('that hides them: the first 2xx warns once that pacing is off, before any 429', async () => {
    const { client, logger } = serviceClient('/hidden-ok/v1');
    expect(await client.listPets()).toEqual([]);
    await client.listPets();

    expect(client.rateLimit).toBeNull();
    expect(logger.warn).toHaveBeenCalledOnce();
    expect(logger.warn.mock.calls[0]?.[0]).toMatch(
      /^animal-store-sdk: GET \/pets: CORS hides the rate-limit headers, so pacing is off; the service must list them in Access-Control-Expose-Headers/,
    );
  });

  it('that exposes them on a 2xx: the client reads them and says nothing', async () => {
    const { client, logger } = serviceClient('/exposed-ok/v1');
    expect(await client.listPets()).toEqual([]);
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 59 });
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('that exposes them: the client reads them and says nothing', async () => {
    const { client, logger } = serviceClient('/exposed/v1');
    const error = await client.listPets().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfterMs).toBe(3_000);
    expect(client.rateLimit).toMatchObject({ limit: 60, remaining: 0 });
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('that does not allow a header the page sends: the connection error names CORS as a likely cause', async () => {
    const { client } = serviceClient('/exposed/v1', { 'X-Trace': 'abc' });
    const error = await client.listPets().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toBe(
      'Could not reach the Animal Store service for GET /pets: Failed to fetch. CORS or a redirect may be why (see the console).',
    );
  });

  it("that refuses a request: the page's fetch error is a lost connection, which a GET retries", async () => {
    const lines: string[] = [];
    const logger = { warn: () => undefined, info: (line: string) => lines.push(line) };
    const client = new PetStoreClient({
      apiKey: null,
      baseUrl: `${service}/exposed/v1`,
      headers: { 'X-Trace': 'abc' },
      logger,
      logLevel: 'info',
      maxRetries: 1,
    });
    await expect(client.listPets()).rejects.toBeInstanceOf(APIConnectionError);
    expect(lines[0]).toMatch(
      /^animal-store-sdk: GET \/pets got a lost connection; retry 1 in \d+ ms \(backoff\)$/,
    );
  });

  it('that redirects, even on its own origin: the browser follows nothing, and the error names redirects', async () => {
    const { client } = serviceClient('/redirect/v1');
    const error = await client.listPets().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(APIConnectionError);
    expect((error as Error).message).toMatch(/CORS or a redirect may be why \(see the console\)/);
    // The same service without the redirect answers.
    await expect(serviceClient('/exposed-ok/v1').client.listPets()).resolves.toEqual([]);
  });
});
