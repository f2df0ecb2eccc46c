/**
 * The SDK as an application runs it: the built package (dist/, built first when out of date),
 * rather than the sources as tsx transforms them, which adds work to every call.
 *
 * @module
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sdk from '../../src/index.js';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../support/package-build.js';

export async function builtSdk(): Promise<typeof Sdk> {
  await ensurePackageBuilt();
  return (await import(pathToFileURL(join(PACKAGE_ROOT, 'dist', 'index.js')).href)) as typeof Sdk;
}
