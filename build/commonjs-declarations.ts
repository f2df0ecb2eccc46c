/**
 * Runs after tsup: gives the CommonJS declarations' imports of msw the `import` resolution mode.
 *
 * msw 3 is an ES module only, so a `.d.cts` file that imports its types plainly fails to type-check
 * under `module: node16` (TS1479) unless the import says `resolution-mode: import`; the declaration
 * bundler drops that attribute from the sources, so it is put back here. msw 2's types resolve the
 * same way.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const DIST = new URL('../dist/', import.meta.url);
const MSW_IMPORT = /^import (?:type )?\* as (\w+) from 'msw';$/m;

const files = (await readdir(DIST, { recursive: true })).filter((file) => file.endsWith('.d.cts'));
let fixed = 0;
for (const file of files) {
  const path = join(DIST.pathname, file);
  const text = await readFile(path, 'utf8');
  if (!MSW_IMPORT.test(text)) continue;
  await writeFile(
    path,
    text.replace(MSW_IMPORT, "import type * as $1 from 'msw' with { 'resolution-mode': 'import' };"),
  );
  fixed += 1;
}
if (fixed === 0) throw new Error('No .d.cts file in dist/ imports msw: the declarations changed shape');
console.log(`CommonJS declarations: msw imported with resolution-mode import in ${fixed} file(s)`);
