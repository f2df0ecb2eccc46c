import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { snippetsOf, sourceFiles } from './snippets.js';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'node_modules/.cache/doc-snippets');

describe('documentation snippets', () => {
  it('type-check: every ```ts and ```tsx block of the README, CONTRIBUTING, docs/ and the TSDoc examples', () => {
    const documents = [
      'README.md',
      'CONTRIBUTING.md',
      ...readdirSync(join(root, 'docs'))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ].map((name) => join(root, name));
    const snippets = [...documents, ...sourceFiles(join(root, 'src'))].flatMap((file) =>
      snippetsOf(file, root),
    );
    expect(snippets.length).toBeGreaterThan(20);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const names = snippets.map((snippet, index) => {
      const name = `snippet-${String(index).padStart(3, '0')}.${snippet.extension}`;
      // An internal module's example imports its neighbours relatively, as contributors read it.
      const code = snippet.code.replace(/(from\s+')(\.{1,2}\/[^']+)'/g, (_, from: string, path: string) => {
        return `${from}${join(root, dirname(snippet.source), path)}'`;
      });
      // Each snippet is its own module; the header says where it came from in tsc's report, unless
      // the snippet has a triple-slash directive, which counts only at the top of a file.
      const [directive] = code.match(/^\/\/\/ <reference .*$/m) ?? [];
      const header = directive ?? `// ${snippet.source}:${snippet.line}`;
      const body = directive === undefined ? code : code.replace(directive, '');
      writeFileSync(join(outDir, name), `${header}\nexport {};\n${body}\n`);
      return name;
    });
    writeFileSync(
      join(outDir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(root, 'tsconfig.json'),
        compilerOptions: {
          // The lib a new project gets: `tsc --init` sets target esnext and no lib, so the default
          // for esnext (the language and the DOM).
          target: 'esnext',
          lib: ['esnext', 'dom', 'dom.iterable', 'dom.asynciterable'],
          noUnusedLocals: false,
          jsx: 'react-jsx',
          rootDir: root,
          paths: {
            'animal-store-sdk': [join(root, 'src/index.ts')],
            'animal-store-sdk/testing': [join(root, 'src/testing/index.ts')],
            'animal-store-sdk/redis': [join(root, 'src/redis/index.ts')],
            'animal-store-sdk/otel': [join(root, 'src/otel/index.ts')],
          },
        },
        include: names,
      }),
    );
    let report = '';
    try {
      execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', join(outDir, 'tsconfig.json')], {
        encoding: 'utf8',
      });
    } catch (error) {
      report = String((error as { stdout?: string }).stdout);
    }
    const located = report.replace(
      /\S*snippet-(\d+)\.tsx?\((\d+),\d+\)/g,
      (_, index: string, line: string) => {
        const snippet = snippets[Number(index)];
        return `${snippet?.source}:${(snippet?.line ?? 0) + Number(line) - 2}`;
      },
    );
    expect(located).toBe('');
  }, 60_000);
});
