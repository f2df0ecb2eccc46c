/**
 * Extracts the TypeScript snippets of the README and of the TSDoc `@example` blocks, so the
 * documentation's code is type-checked like the rest.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** One code block and where it came from. */
export interface Snippet {
  source: string;
  line: number;
  code: string;
  /** `tsx` for a block with JSX, else `ts`. */
  extension: 'ts' | 'tsx';
}

// A block whose fence names a file after the language (```ts instrumentation.ts) needs packages the
// repository does not install (another OpenTelemetry line, Next.js): the tests that install them
// check it (test/otel/current-line.test.ts, test/frameworks).
const fence = /^([ \t]*(?:\* ?)?)```(ts|typescript|tsx)\s*$/;

/** Every ```ts (or ```tsx) block of a Markdown or TypeScript file (TSDoc comment prefixes removed). */
export function snippetsOf(path: string, root: string): Snippet[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  const snippets: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i] ?? '');
    if (!open) continue;
    const prefix = open[1] ?? '';
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !(lines[j] ?? '').trimStart().replace(/^\* ?/, '').startsWith('```'); j++) {
      const line = lines[j] ?? '';
      body.push(line.startsWith(prefix) ? line.slice(prefix.length) : line.replace(/^\s*\*\s?/, ''));
    }
    snippets.push({
      source: relative(root, path),
      line: i + 1,
      code: body.join('\n'),
      extension: open[2] === 'tsx' ? 'tsx' : 'ts',
    });
    i = j;
  }
  return snippets;
}

/** Every `.ts` file below `dir`. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}
