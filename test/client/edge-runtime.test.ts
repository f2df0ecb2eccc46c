import { afterEach, expect, it, vi } from 'vitest';
import { isBrowser } from '../../src/core/browser.js';
import { PetStoreClient, PetStoreError } from '../../src/index.js';
import { API_KEY, BASE_URL } from './setup.js';

afterEach(() => {
  vi.unstubAllGlobals();
});

/**
 * The globals of Next.js's Edge runtime as `next start` sets them up (next/dist/server/web/sandbox):
 * `EdgeRuntime`, and a `process` holding only `env`, whose other properties read as undefined.
 */
function edgeRuntime(): void {
  const process = Object.defineProperty({ env: {} }, 'versions', { get: () => undefined });
  vi.stubGlobal('process', process);
  vi.stubGlobal('EdgeRuntime', 'edge-runtime');
  vi.stubGlobal('navigator', undefined);
}

it('takes a string key in the Edge runtime, which is no browser', () => {
  edgeRuntime();
  expect(isBrowser()).toBe(false);
  expect(new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL })).toBeInstanceOf(PetStoreClient);
});

it('takes one in an Edge runtime that runs on a worker’s global scope, as edge isolates may', () => {
  edgeRuntime();
  vi.stubGlobal(
    'WorkerGlobalScope',
    Object.defineProperty(() => undefined, Symbol.hasInstance, { value: () => true }),
  );
  expect(isBrowser()).toBe(false);
});

it('still refuses one where a page’s document is', () => {
  edgeRuntime();
  vi.stubGlobal('EdgeRuntime', undefined);
  vi.stubGlobal('document', {});
  expect(() => new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL })).toThrow(PetStoreError);
});
