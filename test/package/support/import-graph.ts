/**
 * What a built entry loads when it is imported, and what only later, through a dynamic `import()`:
 * read from esbuild's metafile of a bundle of the installed file.
 *
 * @module
 */
import { relative } from 'node:path';
import { build, type ImportKind, type Metafile } from 'esbuild';

/** The packages and Node modules outside the package an entry loads. */
export interface EntryImports {
  /** Loaded as soon as the entry is (through `import` statements and `require` calls). */
  readonly eager: ReadonlySet<string>;
  /** Loaded only when code runs a dynamic `import()` (and not eagerly as well). */
  readonly lazy: ReadonlySet<string>;
}

const EAGER_KINDS: ReadonlySet<ImportKind> = new Set(['import-statement', 'require-call']);

function externalsReached(
  metafile: Metafile,
  entry: string,
  follow: (kind: ImportKind) => boolean,
): Set<string> {
  const externals = new Set<string>();
  const seen = new Set<string>();
  const pending = [entry];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (!follow(imported.kind)) continue;
      // esbuild's own helpers (here for the CommonJS build's `require` of msw), not a module.
      if (imported.path === '<runtime>') continue;
      if (imported.external === true) externals.add(imported.path);
      else pending.push(imported.path);
    }
  }
  return externals;
}

/** The external imports of the installed file `entry`, resolved as Node resolves them from `project`. */
export async function entryImports(project: string, entry: string): Promise<EntryImports> {
  const { metafile } = await build({
    absWorkingDir: project,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const key = relative(project, entry);
  const eager = externalsReached(metafile, key, (kind) => EAGER_KINDS.has(kind));
  const all = externalsReached(metafile, key, () => true);
  return { eager, lazy: new Set([...all].filter((name) => !eager.has(name))) };
}

/** Bundles `source` for browsers, resolving from `project`; resolves with the files it pulled in. */
export async function browserBundleInputs(project: string, source: string): Promise<string[]> {
  const { metafile } = await build({
    absWorkingDir: project,
    stdin: { contents: source, resolveDir: project, loader: 'js' },
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    logLevel: 'silent',
  });
  return Object.keys(metafile.inputs);
}
