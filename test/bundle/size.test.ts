import { beforeAll, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { bundleForBrowser, describeSize } from './support/browser-bundle.js';

/** What an application pays to use the client: its import, minified and gzipped. */
const CLIENT_IMPORT = "export { PetStoreClient } from 'animal-store-sdk';";

/**
 * The floor under any client on ky and zod: ky, the model's schemas, a parse and English messages,
 * nothing else. `zod` stands for classic zod or zod/mini, whose English messages must be installed
 * with a global `z.config()` (classic zod installs them itself).
 */
function floor(zod: 'zod' | 'zod/mini'): string {
  const optional =
    zod === 'zod' ? (schema: string) => `${schema}.optional()` : (schema: string) => `z.optional(${schema})`;
  return `
import ky from 'ky';
import * as z from '${zod}';
${zod === 'zod/mini' ? "import { en } from 'zod/locales';\nz.config(en());" : ''}
const status = z.enum(['available', 'pending', 'sold']);
const pet = z.strictObject({ id: z.int(), name: z.string(), categoryId: z.int(), status: ${optional('status')} });
export const listPets = async (url) => z.array(pet).parse(await ky(url).json());
`;
}

/**
 * Measured 44,824 B (zod 4.6, ky 2.1; the client with raw requests, log levels, the rate-limit store,
 * request ids, and the diagnostics channels' glue, about 500 B), so that growth is a decision rather
 * than an accident.
 */
const BUDGET_GZIP_BYTES = 46_000;

beforeAll(() => ensurePackageBuilt(), 60_000);

// The floors are weighed beside the client so that the zod/mini figures of docs/benchmarks.md stay current.
it('keeps the minified, gzipped browser bundle of PetStoreClient within its budget', async () => {
  const full = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true });
  const withoutZod = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true, external: ['zod'] });
  const withoutKy = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true, external: ['ky'] });
  const classicFloor = await bundleForBrowser({ source: floor('zod') }, { minify: true });
  const miniFloor = await bundleForBrowser({ source: floor('zod/mini') }, { minify: true });
  console.log(
    [
      `[size] PetStoreClient for browsers: ${describeSize(full.gzipBytes, full.bytes)}; budget ${BUDGET_GZIP_BYTES.toLocaleString('en-US')} B gzip`,
      `[size]   of which zod: ${describeSize(full.gzipBytes - withoutZod.gzipBytes, full.bytes - withoutZod.bytes)}`,
      `[size]   of which ky:  ${describeSize(full.gzipBytes - withoutKy.gzipBytes, full.bytes - withoutKy.bytes)}`,
      `[size] floor, ky + classic zod schemas and a parse: ${describeSize(classicFloor.gzipBytes, classicFloor.bytes)}`,
      `[size] floor, ky + zod/mini schemas, a parse and z.config(en()): ${describeSize(miniFloor.gzipBytes, miniFloor.bytes)}`,
    ].join('\n'),
  );

  expect(full.gzipBytes).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  // Where a runtime has diagnostics_channel, process.getBuiltinModule loads it: a page never asks.
  expect(full.code).not.toMatch(/\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:/);
});
