/**
 * The code of the documentation, as a reader meets it. The TSDoc `@example` blocks are type-checked
 * against the sources (an internal module's example imports its neighbours). Every fenced block of the
 * README and of docs/ is checked against the package as a user installs it: the packed tarball in a
 * project of its own, type-checked as a strict application (nodenext, es2022); a block that forms a
 * program then runs, with PETSTORE_BASE_URL and PETSTORE_API_KEY pointing at a fresh session of the
 * fake's command (its defaults: the Free plan), and the test files among them run under vitest with
 * no configuration. A block that needs a runner's configuration is a file of a project under
 * examples/, shown whole in the docs and run by test/examples. The markers that say otherwise, and
 * what they mean, are in CONTRIBUTING.md ("Code blocks in the docs").
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeServer } from '../frameworks/support/app-process.js';
import { PINNED_NODE, TSC } from '../package/support/repo.js';
import { STRICT_APPLICATION_OPTIONS } from '../package/support/type-check.js';
import { installedProject } from '../support/installed-project.js';
import {
  extensionOf,
  isCode,
  isShell,
  isVitestFile,
  type MarkdownBlock,
  markdownBlocks,
  shellCommands,
  snippetsOf,
  sourceFiles,
} from './snippets.js';

const root = resolve(import.meta.dirname, '../..');
const outDir = join(root, 'node_modules/.cache/doc-snippets');

/** The documents a user reads: the README and the guides (CONTRIBUTING's blocks are shell only). */
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];
const blocks = DOCUMENTS.flatMap((document) => markdownBlocks(join(root, document), root));
const code = blocks.filter(isCode);

/** A program's time to start, call the fake a few times and exit, on a busy 2-core machine. */
const PROGRAM_TIMEOUT_MS = 20_000;
/** The docs' test files under one vitest run. */
const VITEST_TIMEOUT_MS = 120_000;

/**
 * The placeholders of the docs, and the fake's stand-ins when a block runs: the service's address and
 * a key (`my-key`), and the address of `animal-store-fake-server --port 4010`.
 */
function withTheFake(source: string, baseUrl: string): string {
  return source
    .replaceAll('https://animal-store.example.com/v1', baseUrl)
    .replaceAll('http://127.0.0.1:4010/v1', baseUrl)
    .replaceAll("'my-key'", "'test-api-key'");
}

/** A block without an import or export is a module all the same, as each file of a project is. */
function moduleTail(block: MarkdownBlock): string {
  return /^\s*(import|export)\s/m.test(block.code) ? '\n' : '\nexport {};\n';
}

/** The file a block is written to: its document and line, and `.test` for a test file. */
function fileName(block: MarkdownBlock): string {
  const base = `${block.source.replace(/\.md$/, '').replaceAll('/', '-')}-${block.line}`;
  const test = block.kind === 'run' && isVitestFile(block) ? '.test' : '';
  return `${base}${test}.${extensionOf(block)}`;
}

describe('TSDoc examples', () => {
  it('type-check: every ```ts and ```tsx block of the TSDoc examples, against the sources', () => {
    const snippets = sourceFiles(join(root, 'src')).flatMap((file) => snippetsOf(file, root));
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
          target: 'esnext',
          lib: ['esnext', 'dom', 'dom.iterable', 'dom.asynciterable'],
          noUnusedLocals: false,
          jsx: 'react-jsx',
          rootDir: root,
          paths: {
            'animal-store-sdk': [join(root, 'src/index.ts')],
            'animal-store-sdk/testing': [join(root, 'src/testing/index.ts')],
            'animal-store-sdk/store': [join(root, 'src/store/index.ts')],
            'animal-store-sdk/diagnostics': [join(root, 'src/diagnostics/index.ts')],
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

describe('the code blocks of the README and docs/, against the packed package', () => {
  let project: string;
  let fake: Awaited<ReturnType<typeof startFakeServer>>;
  const byFile = new Map(code.map((block) => [fileName(block), block]));

  beforeAll(async () => {
    ({ directory: project } = await installedProject({
      name: 'animal-store-doc-blocks',
      subdirectory: 'project',
      // vitest, msw, zod, React, undici, OpenTelemetry's 2.x line, @types/node: from the repository.
      toolsFromRepository: true,
    }));
    // The command's defaults, as a reader starts it; each program gets a session of its own.
    fake = await startFakeServer(project);
    const baseUrl = `${fake.origin}/v1`;
    await rm(join(project, 'blocks'), { recursive: true, force: true });
    await mkdir(join(project, 'blocks'));
    for (const [name, block] of byFile) {
      if (block.kind === 'fragment' || block.kind === 'tested-by') continue;
      await writeFile(join(project, 'blocks', name), withTheFake(block.code, baseUrl) + moduleTail(block));
    }
  }, 300_000);

  afterAll(() => fake?.server.stop());

  it('every marker is one the rules know, each block accounted for (counts printed)', () => {
    const count = (kind: MarkdownBlock['kind']) => code.filter((block) => block.kind === kind).length;
    const run = code.filter((block) => block.kind === 'run');
    const counts = {
      'TypeScript and JavaScript blocks': code.length,
      'type-checked': code.filter((block) => block.kind !== 'fragment' && block.kind !== 'tested-by').length,
      'run by node': run.filter((block) => !isVitestFile(block)).length,
      'run by vitest (test files, no configuration)': run.filter(isVitestFile).length,
      'files of a project under examples/, run by test/examples': count('example'),
      'type-checked only': count('check-only'),
      fragments: count('fragment'),
      'checked by the test they name': count('tested-by'),
      'shell blocks checked': blocks.filter(isShell).length,
    };
    console.log(
      `[docs] code blocks of ${DOCUMENTS.length} documents:\n${Object.entries(counts)
        .map(([what, n]) => `  ${what}: ${n}`)
        .join('\n')}`,
    );
    expect(code.length).toBeGreaterThanOrEqual(60);
    // A block that is not run says why.
    expect(code.filter((block) => block.kind !== 'run' && block.note === '')).toEqual([]);
  });

  it('each block marked example is the file of examples/ it names, as written, and each such project is shown whole', async () => {
    const examples = blocks.filter(({ kind }) => kind === 'example');
    for (const block of examples) {
      const file = await readFile(join(root, block.note), 'utf8').catch(() => '');
      expect(`${block.code}\n`, `${block.source}:${block.line} is ${block.note}`).toBe(file);
    }
    // The docs ship every file a project needs to run (but msw's worker script, which `npx msw init` writes).
    const projects = new Set(examples.map((block) => dirname(block.note)));
    const files = [...projects].flatMap((project) =>
      readdirSync(join(root, project)).map((name) => join(project, name)),
    );
    expect(files.filter((file) => !examples.some((block) => block.note === file))).toEqual([]);
  });

  it('each block marked tested-by names a test that exists and reads its document', async () => {
    for (const block of code.filter(({ kind }) => kind === 'tested-by')) {
      const test = await readFile(join(root, block.note), 'utf8').catch(() => '');
      expect(test, `${block.source}:${block.line} names ${block.note}`).toContain(block.source);
    }
  });

  it('type-check: as a strict application (nodenext, es2022) with the packed package installed', async () => {
    const files = [...byFile.keys()].filter((name) => {
      const kind = byFile.get(name)?.kind;
      return kind !== 'fragment' && kind !== 'tested-by';
    });
    await writeFile(
      join(project, 'tsconfig.blocks.json'),
      JSON.stringify({
        compilerOptions: {
          ...STRICT_APPLICATION_OPTIONS,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          // Node's own modules, and React's JSX for the .tsx blocks.
          types: ['node'],
          // Other libraries' declarations do not all check against today's @types/node (happy-dom's,
          // through vitest's); the package's own are checked without this by test/package.
          skipLibCheck: true,
          jsx: 'react-jsx',
          allowJs: true,
          checkJs: true,
        },
        files: files.map((name) => `blocks/${name}`),
      }),
    );
    let report = '';
    try {
      await promisify(execFile)(TSC, ['-p', 'tsconfig.blocks.json', '--pretty', 'false'], {
        cwd: project,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      report = String((error as { stdout?: string }).stdout);
    }
    // tsc's file(line,col) back to the document's line.
    const located = report.replace(/blocks\/(\S+?)\((\d+),\d+\)/g, (_, name: string, line: string) => {
      const block = byFile.get(name);
      return `${block?.source}:${(block?.line ?? 0) + Number(line)}`;
    });
    expect(located).toBe('');
  }, 120_000);

  it('run: each program exits 0 against a fresh session of the fake, within its time', async () => {
    const runs = [...byFile].filter(([, block]) => block.kind === 'run' && !isVitestFile(block));
    // A `.mts` file is an ES module in any project: it runs in a CommonJS one as well, as the README says.
    await mkdir(join(project, 'cjs'), { recursive: true });
    await writeFile(join(project, 'cjs', 'package.json'), '{ "type": "commonjs" }\n');
    const programs = runs.flatMap(([name, block]) => [
      { file: `blocks/${name}`, block },
      ...(name.endsWith('.mts') ? [{ file: `cjs/${name}`, block }] : []),
    ]);
    const failures: string[] = [];
    const took: [string, number][] = [];
    // Two at a time: a 2-core machine.
    const queue = [...programs];
    await Promise.all(
      [0, 1].map(async () => {
        for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
          const { file, block } = next;
          // A session of its own: the seeded pets and a fresh rate-limit window, as a newly started fake.
          const session = (await (
            await fetch(`${fake.origin}/__fake/sessions`, { method: 'POST' })
          ).json()) as {
            baseUrl: string;
            controlUrl: string;
          };
          await writeFile(join(project, file), withTheFake(block.code, session.baseUrl) + moduleTail(block));
          const started = performance.now();
          try {
            await promisify(execFile)(PINNED_NODE, [file], {
              cwd: project,
              env: {
                ...process.env,
                PETSTORE_BASE_URL: session.baseUrl,
                PETSTORE_API_KEY: 'test-api-key',
                NODE_NO_WARNINGS: '1',
              },
              timeout: PROGRAM_TIMEOUT_MS,
              killSignal: 'SIGKILL',
            });
          } catch (error) {
            const { stdout, stderr, signal } = error as { stdout?: string; stderr?: string; signal?: string };
            failures.push(`${block.source}:${block.line} (${file}) ${signal ?? ''}\n${stdout}\n${stderr}`);
          }
          took.push([`${block.source}:${block.line} (${file})`, performance.now() - started]);
          await fetch(session.controlUrl, { method: 'DELETE' });
        }
      }),
    );
    const slowest = took
      .sort(([, a], [, b]) => b - a)
      .slice(0, 3)
      .map(([where, ms]) => `${where} ${(ms / 1000).toFixed(1)} s`);
    console.log(
      `[docs] ran ${programs.length} programs against the fake's command; slowest: ${slowest.join(', ')}`,
    );
    expect(failures).toEqual([]);
  }, 180_000);

  it(
    'run: the test files pass under vitest, with its defaults',
    async () => {
      const tests = [...byFile.keys()].filter((name) => /\.test\.\w+$/.test(name));
      // vitest's defaults (the node environment, no setup), but for the files: only these.
      await writeFile(
        join(project, 'vitest.blocks.config.mjs'),
        `export default ${JSON.stringify({ test: { include: tests.map((name) => `blocks/${name}`) } })};\n`,
      );
      const report = join(project, 'vitest-report.json');
      const started = performance.now();
      let output = '';
      try {
        const run = await promisify(execFile)(
          PINNED_NODE,
          [
            join(root, 'node_modules/vitest/vitest.mjs'),
            'run',
            '--config',
            'vitest.blocks.config.mjs',
            '--reporter=json',
            `--outputFile=${report}`,
          ],
          {
            cwd: project,
            timeout: VITEST_TIMEOUT_MS,
            killSignal: 'SIGKILL',
            env: { ...process.env, CI: '1' },
          },
        );
        output = `${run.stdout}\n${run.stderr}`;
      } catch (error) {
        const { stdout, stderr } = error as { stdout?: string; stderr?: string };
        output = `${stdout}\n${stderr}`;
      }
      const seconds = (performance.now() - started) / 1000;
      const results = JSON.parse(await readFile(report, 'utf8').catch(() => '{}')) as {
        numTotalTests?: number;
        numPassedTests?: number;
        numTotalTestSuites?: number;
        numFailedTestSuites?: number;
      };
      console.log(
        `[docs] vitest ran ${results.numTotalTests} tests of ${tests.length} files in ${seconds.toFixed(1)} s`,
      );

      expect(results.numTotalTests, output).toBeGreaterThan(0);
      expect(results.numPassedTests, output).toBe(results.numTotalTests);
      // A file that fails outside its tests (a hook called where it cannot be) counts no failed test.
      expect(results.numFailedTestSuites, output).toBe(0);
      expect(output).not.toMatch(/close timed out|prevents? .* from exiting/i);
    },
    VITEST_TIMEOUT_MS + 10_000,
  );

  it('shell: each command is an npm script, a bin of the package or of a tool, or curl; installs are pinned', async () => {
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
      name: string;
      scripts: Record<string, string>;
      bin: Record<string, string>;
    };
    const tools = readdirSync(join(root, 'node_modules/.bin'));
    const problems: string[] = [];
    for (const block of blocks.filter(isShell)) {
      for (const [command, ...args] of shellCommands(block.code)) {
        const where = `${block.source}:${block.line}: ${[command, ...args].join(' ')}`;
        const [verb = '', name = ''] = args;
        if (command === 'npx') {
          if (!(verb in manifest.bin) && !tools.includes(verb)) problems.push(`${where}: no bin ${verb}`);
        } else if (command === 'npm' && (verb === 'run' || verb === 'start' || verb === 'test')) {
          const script = verb === 'run' ? name : verb;
          if (!(script in manifest.scripts)) problems.push(`${where}: no script ${script}`);
        } else if (command === 'npm' && (verb === 'install' || verb === 'i')) {
          const unpinned = args
            .slice(1)
            .filter(
              (spec) => !spec.startsWith('-') && spec !== manifest.name && !/@\d+\.\d+\.\d+$/.test(spec),
            );
          if (unpinned.length > 0) problems.push(`${where}: not pinned: ${unpinned.join(' ')}`);
          const names = args.slice(1).map((spec) => spec.replace(/(?<=.)@[^@]*$/, ''));
          if (new Set(names).size !== names.length) problems.push(`${where}: a package named twice`);
        } else if (!(command === 'npm' && verb === 'ci') && command !== 'curl') {
          problems.push(`${where}: a command the rules do not know (CONTRIBUTING.md)`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
