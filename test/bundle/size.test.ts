import { expect, it } from 'vitest';
import { log } from '../package/support/log.js';
import { runtimeProject } from '../runtimes/support/runtime-project.js';
import { bundleForBrowser } from './support/browser-bundle.js';
import {
  type BrowserWeight,
  browserWeightTable,
  bytesText,
  CLIENT_AND_ONE_CALL,
  FEATURE_FAMILIES,
  type FeatureFamily,
  measureBrowserWeight,
} from './support/browser-weight.js';

/**
 * What an application pays for `PetStoreClient` and one call, from the packed tarball: at most
 * 26,000 B (measured 26,753 B with zod 4.6, ky 2.1, the browser build, request ids, the diagnostics
 * channels' browser twin, the fleet's pacing alone kept out of the in-process store, `fetchOptions`
 * and retries sent past a memoizing fetch, one check of an object's fields for options and raw
 * requests, the queue's time bounds, cap, reading and closing with `sent` on every error, the
 * budget spread over the window, bodies read under `maxResponseBytes` with every failure a
 * `PetStoreError`, silence counted and probed, the retry budget and one schedule, and `limit`'s
 * bounds checked by one light check rather than zod's two; 23,887 B before them), so that growth is
 * a decision rather than an accident. The browser build leaves out the schedule's estimate of each
 * waiting call's start, and takes a connection error's reason from its message alone.
 */
const BUDGET_GZIP_BYTES = 26_000;

/** What each feature family may add: about a tenth above what it weighs, for the same reason. */
const FAMILY_BUDGETS: Readonly<Record<FeatureFamily, number>> = {
  'pacing and the cooldown': 2_100,
  'raw requests': 995,
  logging: 255,
  errors: 900,
  'browser safety': 495,
  'queue bounds and closing': 330,
};

let weight: BrowserWeight;

it('keeps PetStoreClient and one call, minified and gzipped for a browser, within its budget', async () => {
  weight = await measureBrowserWeight();
  log(`browser weight (budget ${bytesText(BUDGET_GZIP_BYTES)} gzip):\n${browserWeightTable(weight)}`);
  expect(weight.sdk.gzipBytes).toBeLessThanOrEqual(BUDGET_GZIP_BYTES);
  // The build the families are weighed against is the one users get.
  expect(Math.abs(weight.sdkFromSource.gzipBytes - weight.sdk.gzipBytes)).toBeLessThan(200);
}, 180_000);

it.for(Object.keys(FEATURE_FAMILIES) as FeatureFamily[])('keeps what %s adds within its budget', (family) => {
  const cost = weight.families.find((entry) => entry.family === family);
  expect(cost?.gzipBytes).toBeGreaterThan(0);
  expect(cost?.gzipBytes).toBeLessThanOrEqual(FAMILY_BUDGETS[family]);
});

it('bundles for a page without asking for any node: module, diagnostics_channel included', async () => {
  const { directory } = await runtimeProject();
  const { code } = await bundleForBrowser({ source: CLIENT_AND_ONE_CALL }, { resolveDir: directory });
  expect(code).not.toMatch(/\bimport\s*\(?\s*["']node:|\brequire\(\s*["']node:|getBuiltinModule/);
}, 180_000);
