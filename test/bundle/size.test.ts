import { beforeAll, expect, it } from 'vitest';
import { ensurePackageBuilt } from '../support/package-build.js';
import { bundleForBrowser, describeSize } from './support/browser-bundle.js';

/** What an application pays to use the client: its import, minified and gzipped. */
const CLIENT_IMPORT = "export { PetStoreClient } from 'animal-store-sdk';";

/**
 * About 10% above the measured 39,850 B (zod 4.6, ky 2.1), so that growth is a decision rather
 * than an accident.
 */
const BUDGET_GZIP_BYTES = 44_000;

beforeAll(() => ensurePackageBuilt(), 60_000);

it('keeps the minified, gzipped browser bundle of PetStoreClient within its budget', async () => {
  const full = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true });
  const withoutZod = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true, external: ['zod'] });
  const withoutKy = await bundleForBrowser({ source: CLIENT_IMPORT }, { minify: true, external: ['ky'] });
  console.log(
    [
      `[size] PetStoreClient for browsers: ${describeSize(full.gzipBytes, full.bytes)}; budget ${BUDGET_GZIP_BYTES.toLocaleString('en-US')} B gzip`,
      `[size]   of which zod: ${describeSize(full.gzipBytes - withoutZod.gzipBytes, full.bytes - withoutZod.bytes)}`,
      `[size]   of which ky:  ${describeSize(full.gzipBytes - withoutKy.gzipBytes, full.bytes - withoutKy.bytes)}`,
    ].join('\n'),
  );
  expect(full.gzipBytes).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
});
