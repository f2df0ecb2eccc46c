/**
 * Extracts the code of the documentation: the TypeScript snippets of the TSDoc `@example` blocks, and
 * every fenced block of the Markdown guides with the marker that says what the suite does with it (the
 * rules are in CONTRIBUTING.md, "Code blocks in the docs").
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

const fence = /^([ \t]*(?:\* ?)?)```(ts|typescript|tsx)\s*$/;

/** Every ```ts (or ```tsx) block of a TypeScript file's TSDoc comments (comment prefixes removed). */
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

/** The fence languages of each kind of block the suite checks; any other language is prose. */
export const LANGUAGES = {
  code: ['ts', 'typescript', 'tsx', 'mts', 'cts', 'js', 'javascript', 'jsx', 'mjs', 'cjs'],
  shell: ['sh', 'bash', 'shell'],
} as const;

/**
 * What the suite does with a code block, from the marker on the line above its fence:
 * - `run` (no marker): type-checked, then run as a user pastes it (a test file under vitest);
 * - `check-only`: type-checked, not run (it needs a browser page, Redis, a proxy, or declares what the
 *   application supplies);
 * - `example`: type-checked, and the file of examples/ the marker names, as written: a project of its
 *   own (a test runner's configuration and the files it runs) that test/examples runs;
 * - `fragment`: neither: part of a larger file, or of an app the docs do not show whole;
 * - `tested-by`: neither here: the named test installs what the block needs, and checks it.
 */
export type BlockKind = 'run' | 'check-only' | 'example' | 'fragment' | 'tested-by';

const MARKER = /^<!--\s*snippet:\s*(\S+)\s*(.*?)\s*-->\s*$/;
const MARKED_KINDS: readonly BlockKind[] = ['check-only', 'example', 'fragment', 'tested-by'];

/** A fenced block of a Markdown document. */
export interface MarkdownBlock {
  readonly source: string;
  /** The fence's line, from 1. */
  readonly line: number;
  /** The fence's language (`ts`, `js`, `sh`, ...). */
  readonly language: string;
  /** What the fence says after the language (a file name), or ''. */
  readonly info: string;
  readonly code: string;
  readonly kind: BlockKind;
  /** The marker's words after the kind: the reason, or the test's path for `tested-by`. */
  readonly note: string;
}

/** A marker the rules do not know, or one that stands above no fence. */
export class MarkerError extends Error {}

/** Every fenced block of a Markdown document, with its marker read. */
export function markdownBlocks(path: string, root: string): MarkdownBlock[] {
  const source = relative(root, path);
  const lines = readFileSync(path, 'utf8').split('\n');
  const blocks: MarkdownBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const marker = MARKER.exec(line);
    if (marker !== null) {
      const kind = marker[1] as BlockKind;
      if (!MARKED_KINDS.includes(kind)) {
        throw new MarkerError(`${source}:${i + 1}: unknown marker "${marker[1]}"; see CONTRIBUTING.md`);
      }
      if (!(lines[i + 1] ?? '').startsWith('```')) {
        throw new MarkerError(`${source}:${i + 1}: a marker stands on the line right above a fence`);
      }
      continue;
    }
    const open = /^```(\w+)?[ \t]*(.*)$/.exec(line);
    if (open === null) continue;
    let close = i + 1;
    while (close < lines.length && !(lines[close] ?? '').startsWith('```')) close++;
    const above = MARKER.exec(lines[i - 1] ?? '');
    blocks.push({
      source,
      line: i + 1,
      language: open[1] ?? '',
      info: open[2] ?? '',
      code: lines.slice(i + 1, close).join('\n'),
      kind: (above?.[1] as BlockKind | undefined) ?? 'run',
      note: above?.[2] ?? '',
    });
    i = close;
  }
  return blocks;
}

/** Whether a block is TypeScript or JavaScript code. */
export function isCode(block: MarkdownBlock): boolean {
  return (LANGUAGES.code as readonly string[]).includes(block.language);
}

/** Whether a block is a shell session. */
export function isShell(block: MarkdownBlock): boolean {
  return (LANGUAGES.shell as readonly string[]).includes(block.language);
}

/**
 * The extension a block's file takes in a project of `"type": "module"`: that of the file its fence
 * names (```` ```ts app.mts ````), else its language's.
 */
export function extensionOf(block: MarkdownBlock): string {
  const named = /^\S+\.(\w+)(?:\s|$)/.exec(block.info)?.[1];
  if (named !== undefined && (LANGUAGES.code as readonly string[]).includes(named)) return named;
  return ({ typescript: 'ts', javascript: 'js' } as Record<string, string>)[block.language] ?? block.language;
}

/** Whether a block is a test file for vitest (it imports vitest's API). */
export function isVitestFile(block: MarkdownBlock): boolean {
  return /from 'vitest'/.test(block.code);
}

/**
 * The commands of a shell block, one per entry: continuation lines joined, comments and output lines
 * (`# ...`) dropped, `&&`, `;` and `|` splitting a line, leading `NAME=value` assignments removed.
 */
export function shellCommands(code: string): string[][] {
  return code
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim())
    .filter((line) => line !== '')
    .flatMap((line) => line.split(/&&|;|\|/))
    .map((command) =>
      (command.match(/'[^']*'|"[^"]*"|\S+/g) ?? []).filter(
        (word, index, words) =>
          !(/^[A-Z_]+=/.test(word) && words.slice(0, index).every((w) => /^[A-Z_]+=/.test(w))),
      ),
    )
    .filter((words) => words.length > 0);
}
