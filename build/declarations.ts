/**
 * Runs after tsup: makes the declarations' import of msw, an optional peer dependency, hold where msw
 * is not installed.
 *
 * - Every declaration file importing msw gets a `@ts-expect-error` above the import: without msw it reads
 *   as `any`, and the handlers' type (src/testing/msw.ts) falls back to `unknown`, so that a project
 *   without msw type-checks with `skipLibCheck: false`. With msw, nothing is ignored.
 * - The CommonJS declarations' import gets the `import` resolution mode: msw 3 is an ES module only,
 *   so a `.d.cts` file that imports its types plainly fails under `module: node16` (TS1479), and the
 *   declaration bundler drops that attribute from the sources. msw 2's types resolve the same way.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const DIST = new URL('../dist/', import.meta.url);
const MSW_IMPORT = /^import (?:type )?\* as (\w+) from 'msw';$/m;
const IGNORE =
  '// @ts-ignore msw is an optional peer dependency: without it, store.handlers is typed unknown[].';

const files = (await readdir(DIST, { recursive: true })).filter(
  (file) => file.endsWith('.d.ts') || file.endsWith('.d.cts'),
);
let fixed = 0;
for (const file of files) {
  const path = join(DIST.pathname, file);
  const text = await readFile(path, 'utf8');
  if (!MSW_IMPORT.test(text)) continue;
  const attributes = file.endsWith('.d.cts') ? " with { 'resolution-mode': 'import' }" : '';
  await writeFile(path, text.replace(MSW_IMPORT, `${IGNORE}\nimport type * as $1 from 'msw'${attributes};`));
  fixed += 1;
}
if (fixed < 2)
  throw new Error('No .d.ts and .d.cts pair in dist/ imports msw: the declarations changed shape');
console.log(`Declarations: msw's import made optional in ${fixed} file(s)`);
