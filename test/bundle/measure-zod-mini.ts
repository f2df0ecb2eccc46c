/**
 * Weighs PetStoreClient's browser bundle with the schemas in classic zod (as shipped) and in
 * zod/mini, both bundled from src/ the same way, and checks that the zod/mini variant still works
 * against the fake store. Run: `npx tsx test/bundle/measure-zod-mini.ts`.
 *
 * @module
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as esbuild from 'esbuild';
import type { PetStoreClient } from '../../src/index.js';
import { createFakePetStore, DEFAULT_API_KEY } from '../../src/testing/index.js';
import { PACKAGE_ROOT } from '../support/package-build.js';
import { type BrowserBundle, bundleForBrowser, describeSize } from './support/browser-bundle.js';

const CLIENT_FROM_SOURCE = "export { PetStoreClient, RequestValidationError } from './src/index.ts';";

/** Swaps the package's two zod modules for their zod/mini versions. */
const zodMini: esbuild.Plugin = {
  name: 'zod-mini-schemas',
  setup(build) {
    const replacements: Record<string, string> = {
      'schemas.ts': join(PACKAGE_ROOT, 'test/bundle/zod-mini/schemas.ts'),
      'validate.ts': join(PACKAGE_ROOT, 'test/bundle/zod-mini/validate.ts'),
    };
    build.onLoad({ filter: /[\\/]src[\\/](schemas|core[\\/]validate)\.ts$/ }, (args) => {
      const name = args.path.endsWith('schemas.ts') ? 'schemas.ts' : 'validate.ts';
      return { contents: `export * from ${JSON.stringify(replacements[name])};`, loader: 'ts' };
    });
  },
};

async function smokeTest(bundle: BrowserBundle): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'zod-mini-'));
  try {
    const file = join(dir, 'client.mjs');
    writeFileSync(file, bundle.code);
    const sdk = (await import(pathToFileURL(file).href)) as {
      PetStoreClient: typeof PetStoreClient;
      RequestValidationError: ErrorConstructor;
    };
    const store = createFakePetStore();
    const client = new sdk.PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: store.baseUrl,
      fetch: store.fetch,
    });
    const pet = await client.createPet({ name: 'Rex', categoryId: 1 });
    if ((await client.listPets()).length !== 1 || pet.id !== 1) throw new Error('the bundle misbehaves');
    const invalid = await client.listPets({ limit: 500 }).catch((error: unknown) => error);
    if (!(invalid instanceof sdk.RequestValidationError)) throw new Error('no RequestValidationError');
    return invalid.message;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const source = { source: CLIENT_FROM_SOURCE };
const classic = await bundleForBrowser(source, { minify: true });
const mini = await bundleForBrowser(source, { minify: true, plugins: [zodMini] });
const withoutZod = await bundleForBrowser(source, { minify: true, external: ['zod', 'zod/*'] });
const share = (bundle: BrowserBundle) =>
  describeSize(bundle.gzipBytes - withoutZod.gzipBytes, bundle.bytes - withoutZod.bytes);
console.log(
  `with zod:      ${describeSize(classic.gzipBytes, classic.bytes)}; zod's share ${share(classic)}`,
);
console.log(`with zod/mini: ${describeSize(mini.gzipBytes, mini.bytes)}; zod/mini's share ${share(mini)}`);
console.log(`zod left out:  ${describeSize(withoutZod.gzipBytes, withoutZod.bytes)}`);
console.log(`zod says:      ${await smokeTest(classic)}`);
console.log(`zod/mini says: ${await smokeTest(mini)}`);
