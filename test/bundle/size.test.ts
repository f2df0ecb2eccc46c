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
 * What an application pays for `PetStoreClient` and one call, from the packed tarball: measured
 * with zod 4.6, ky 2.1, the browser build, request ids, the diagnostics channels' browser
 * twin, the fleet's pacing alone kept out of the in-process store, `fetchOptions` and retries sent
 * past a memoizing fetch, one check of an object's fields for options and raw requests, the queue's
 * time bounds, cap, reading and closing with `sent` on every error, the budget spread over the
 * window (25,996 B up to here), then bodies read under `maxResponseBytes` with every failure a
 * `PetStoreError` (about 270 B), requests without an answer counted and probed and the retry budget
 * (about 530 B), per-call redaction of rotated keys and the attempt's abort (about 160 B), and one
 * schedule with waits reported once per reason (about 50 B); 27,090 B. Then 124 B: a call behind one
 * held by the spread asked about with its own bound, a budget held by requests in flight not
 * refused, requests unanswered before a reset counted into the next window (27,214 B; the browser
 * build leaves the last rule's window arithmetic to its twin). That is above the 26,000 B the package
 * allows itself, kept here as the figure to come back under: the ceiling below is today's weight,
 * so that nothing grows it further while the 1.0 surface (one table of operations, fewer names)
 * takes it back to 26,000 B and then 25,500 B. The browser build leaves out the schedule's
 * estimate of each waiting call's start, and takes a connection error's reason from its message alone.
 */
const BUDGET_GZIP_BYTES = 27_220;

/** The package's own limit, which the weight above must return under. */
const TARGET_GZIP_BYTES = 26_000;

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
  log(
    `browser weight (ceiling ${bytesText(BUDGET_GZIP_BYTES)}, limit ${bytesText(TARGET_GZIP_BYTES)} gzip):\n${browserWeightTable(weight)}`,
  );
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
