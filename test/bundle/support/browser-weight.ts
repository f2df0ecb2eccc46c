/**
 * What the SDK weighs in a browser bundle (esbuild, minified, gzipped), beside the floor of its own
 * libraries used plainly, and what each of its feature families adds. The SDK and the floors are
 * bundled from the packed tarball as an application installs it; each family's cost is the
 * difference between the SDK built from source and the same build with that family's modules
 * replaced by stubs that do nothing (feature-stubs/); both use the browser variants of modules, as
 * the package's browser build does.
 *
 * @module
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as esbuild from 'esbuild';
import { browserVariants } from '../../../tsup.config.js';
import { runtimeProject } from '../../runtimes/support/runtime-project.js';
import { PACKAGE_ROOT } from '../../support/package-build.js';
import { bundleForBrowser } from './browser-bundle.js';

/** An application's use of the client: the class and one call. */
export const CLIENT_AND_ONE_CALL = `
import { PetStoreClient } from 'animal-store-sdk';
export const listPets = (options) => new PetStoreClient(options).listPets({ limit: 10 });
`;

/** The same, from the repository's sources, for the builds that leave a family out. */
const CLIENT_FROM_SOURCE = CLIENT_AND_ONE_CALL.replace("'animal-store-sdk'", "'./src/index.ts'");

/**
 * The floor under any client of ky and zod: ky, the model's schemas written plainly, one call
 * parsed, and zod's English messages (which zod/mini leaves to the application's `z.config()`).
 */
function floorSource(zod: 'zod' | 'zod/mini'): string {
  const optional =
    zod === 'zod' ? (schema: string) => `${schema}.optional()` : (schema: string) => `z.optional(${schema})`;
  const range = zod === 'zod' ? 'z.int().min(1).max(100)' : 'z.int().check(z.minimum(1), z.maximum(100))';
  return `
import ky from 'ky';
import * as z from '${zod}';
${zod === 'zod/mini' ? "import { en } from 'zod/locales';\nz.config(en());" : ''}
const status = z.enum(['available', 'pending', 'sold']);
const newPet = { name: z.string(), categoryId: z.int(), status: ${optional('status')} };
export const NewPet = z.strictObject(newPet);
export const Pet = z.object({ id: z.int(), ...newPet });
export const ErrorBody = z.object({ code: z.string(), message: z.string(), status: z.int() });
const params = z.strictObject({ limit: ${optional(range)}, status: ${optional('status')} });
export const listPets = async (url, query) =>
  z.array(Pet).parse(await ky(url, { searchParams: params.parse(query) }).json());
`;
}

/** The feature families, each with the modules that make it and that its stubs replace. */
export const FEATURE_FAMILIES = {
  'pacing and the cooldown': ['core/pacing/gate', 'core/pacing/in-process-store'],
  'raw requests': ['core/raw-request'],
  logging: ['core/log', 'core/request/attempt-log'],
  errors: ['errors', 'core/request/failure'],
  'browser safety': ['core/browser', 'core/request/cors'],
  'queue bounds and closing': ['core/queue/open-calls', 'core/queue/refusals'],
} as const satisfies Record<string, readonly string[]>;

export type FeatureFamily = keyof typeof FEATURE_FAMILIES;

const STUBS = join(dirname(fileURLToPath(import.meta.url)), 'feature-stubs');

/** Resolves the family's modules of src/ to their stubs. */
function leaveOut(family: FeatureFamily): esbuild.Plugin {
  const modules = new Set<string>(FEATURE_FAMILIES[family]);
  return {
    name: `leave-out-${family}`,
    setup(build) {
      build.onResolve({ filter: /^\.{1,2}\/.*\.js$/ }, (args) => {
        const target = join(args.resolveDir, args.path).replace(/\.js$/, '');
        const module = target.slice(join(PACKAGE_ROOT, 'src').length + 1);
        if (!modules.has(module)) return undefined;
        return { path: join(STUBS, `${module.split('/').pop()}.ts`) };
      });
    },
  };
}

/** A bundle's size. */
export interface Weight {
  /** Bytes, gzipped at zlib's default level. */
  readonly gzipBytes: number;
  /** Bytes, minified. */
  readonly bytes: number;
}

/** Everything the browser-weight figures hold, from one run. */
export interface BrowserWeight {
  /** ky + zod/mini with the same schemas, used plainly. */
  readonly floor: Weight;
  /** ky + classic zod with the same schemas, used plainly. */
  readonly classicFloor: Weight;
  /** `PetStoreClient` and one call, from the packed tarball. */
  readonly sdk: Weight;
  /** Of the SDK: what zod and ky weigh in it. */
  readonly zod: Weight;
  readonly ky: Weight;
  /** The SDK built from the repository's sources, the reference of the families' costs. */
  readonly sdkFromSource: Weight;
  /** What each family adds to the SDK built from source. */
  readonly families: readonly ({ readonly family: FeatureFamily } & Weight)[];
}

const minified = async (
  source: string,
  options: { resolveDir: string; external?: string[]; plugins?: esbuild.Plugin[] },
) => {
  const { gzipBytes, bytes } = await bundleForBrowser({ source }, { minify: true, ...options });
  return { gzipBytes, bytes };
};

const less = (a: Weight, b: Weight): Weight => ({
  gzipBytes: a.gzipBytes - b.gzipBytes,
  bytes: a.bytes - b.bytes,
});

/** Bundles and weighs everything, the SDK and the floors from the tarball installed as a user would. */
export async function measureBrowserWeight(): Promise<BrowserWeight> {
  const { directory } = await runtimeProject();
  const installed = { resolveDir: directory };
  const sdk = await minified(CLIENT_AND_ONE_CALL, installed);
  const source = { resolveDir: PACKAGE_ROOT, plugins: [browserVariants] };
  const sdkFromSource = await minified(CLIENT_FROM_SOURCE, source);
  const families = [];
  for (const family of Object.keys(FEATURE_FAMILIES) as FeatureFamily[]) {
    const without = await minified(CLIENT_FROM_SOURCE, {
      ...source,
      plugins: [browserVariants, leaveOut(family)],
    });
    families.push({ family, ...less(sdkFromSource, without) });
  }
  return {
    floor: await minified(floorSource('zod/mini'), installed),
    classicFloor: await minified(floorSource('zod'), installed),
    sdk,
    zod: less(sdk, await minified(CLIENT_AND_ONE_CALL, { ...installed, external: ['zod'] })),
    ky: less(sdk, await minified(CLIENT_AND_ONE_CALL, { ...installed, external: ['ky'] })),
    sdkFromSource,
    families,
  };
}

/** `20,512 B`: a size as the tables show it. */
export const bytesText = (count: number) => `${count.toLocaleString('en-US')} B`;

/** The figures as a Markdown table, as docs/browser.md shows them. */
export function browserWeightTable(weight: BrowserWeight): string {
  const row = (what: string, { gzipBytes, bytes }: Weight) =>
    `| ${what} | ${bytesText(gzipBytes)} | ${bytesText(bytes)} |`;
  return [
    '| Bundle (esbuild, minified) | gzip | minified |',
    '|---|---|---|',
    row('Floor: ky + zod/mini, the same schemas, one call, English messages', weight.floor),
    row('ky + classic zod, the same', weight.classicFloor),
    row('**`PetStoreClient` + one call**', weight.sdk),
    row('↳ of which zod', weight.zod),
    row('↳ of which ky', weight.ky),
    row('↳ above the floor', less(weight.sdk, weight.floor)),
    ...weight.families.map((family) => row(`↳ ${family.family}`, family)),
  ].join('\n');
}
