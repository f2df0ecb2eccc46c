/**
 * The public surface as users import it: every entry of package.json's `exports`, read through its
 * `index.ts` by the TypeScript checker, so that a type and a value count alike.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The most names the root entry and `./testing` export: what an application and its tests use. */
const MOST_NAMES = { '.': 40, './testing': 40 };

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
};
const entries = Object.keys(manifest.exports)
  .filter((entry) => !/\.json$/.test(entry))
  .map((entry) => ({ entry, file: join(root, 'src', entry.slice(2), 'index.ts') }));

function exportedNames(): Map<string, string[]> {
  const program = ts.createProgram(
    entries.map(({ file }) => file),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
    },
  );
  const checker = program.getTypeChecker();
  return new Map(
    entries.map(({ entry, file }) => {
      const source = program.getSourceFile(file);
      const module = source && checker.getSymbolAtLocation(source);
      if (module === undefined) throw new Error(`${entry}: ${file} is not an entry module`);
      return [entry, checker.getExportsOfModule(module).map((symbol) => symbol.name)];
    }),
  );
}

describe('the public surface', () => {
  const names = exportedNames();

  it('has an index.ts for every entry of package.json', () => {
    expect([...names.keys()]).toEqual(expect.arrayContaining(['.', './testing', './store', './diagnostics']));
    for (const [entry, exported] of names) expect(exported.length, entry).toBeGreaterThan(0);
  });

  it.for(Object.entries(MOST_NAMES))('%s exports at most %i names', ([entry, most]) => {
    const exported = names.get(entry) ?? [];
    expect(exported.length, exported.sort().join(', ')).toBeLessThanOrEqual(most);
  });

  it('names every exported symbol under one brand, PetStore', () => {
    const secondBrand = [...names].flatMap(([entry, exported]) =>
      exported.filter((name) => /animal_?store/i.test(name)).map((name) => `${entry}: ${name}`),
    );
    expect(secondBrand).toEqual([]);
  });

  it('deprecates nothing but getPet, the operation the service retires', () => {
    const files = readdirSync(join(root, 'src'), { recursive: true, withFileTypes: true })
      .filter((file) => file.isFile() && file.name.endsWith('.ts'))
      .map((file) => join(file.parentPath, file.name));
    const deprecated = files.flatMap((file) => {
      const lines = readFileSync(file, 'utf8').split('\n');
      return lines.flatMap((line, index) => {
        if (!/^\s*\*\s*@deprecated\b/.test(line)) return [];
        // The declaration the doc comment belongs to: the first line after the comment closes.
        const close = lines.findIndex((text, at) => at > index && /\*\/\s*$/.test(text));
        return [`${relative(root, file)}: ${lines[close + 1]?.trim()}`];
      });
    });
    expect(deprecated).toHaveLength(1);
    expect(deprecated[0]).toMatch(/^src\/client\.ts: getPet\(/);
  });
});
