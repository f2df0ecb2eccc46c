/**
 * Global setup of the node project: builds dist/ once before the test files start when a fresh
 * clone has none. A failed build is reported by the test files that need dist/, not here, so
 * that the tests of src/ still run.
 *
 * @module
 */
import { buildPackageIfMissing } from './package-build.js';

export default async function buildIfMissing(): Promise<void> {
  await buildPackageIfMissing().catch(() => undefined);
}
