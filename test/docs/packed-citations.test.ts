/**
 * What the tarball ships cites only what the tarball holds: a reader of a packed document or of a
 * declaration's doc comment (in node_modules, on npm, in an editor's hover) meets no path to the
 * repository's sources or tests, which are not there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PackedFile, sharedPackage } from '../package/support/built-package.js';
import { REPO_ROOT } from '../package/support/repo.js';

/** The repository's folders that are not packed, and a path into one (`test/redis`, `src/client.ts`). */
const REPOSITORY_PATH = /(?<![\w/.@:-])((?:src|test|examples|build|bench)\/[\w.-]+(?:\/[\w.-]+)*)/g;
/** A module named by its folder (`rules/auth.ts`), or by its name alone (`rate-limit-store.ts`). */
const MODULE_PATH = /(?<![\w/.@:-])((?:[\w-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|js))\b/g;

/** The sources' paths under src/, to know a module when a path names it. */
const SOURCES = readdirSync(join(REPO_ROOT, 'src'), { recursive: true, encoding: 'utf8' }).map((path) =>
  path.replaceAll('\\', '/'),
);

/** The paths a text cites that name the repository's files: `declaration` also counts a module's bare name. */
function citations(text: string, declaration: boolean): string[] {
  // What a reader sees: an HTML comment (the docs' code-block markers) renders as nothing.
  const visible = text.replace(/<!--[\s\S]*?-->/g, '');
  const cited = new Set<string>();
  for (const [, path = ''] of visible.matchAll(REPOSITORY_PATH)) {
    const trimmed = path.replace(/[.,:;)]+$/, '');
    if (existsSync(join(REPO_ROOT, trimmed))) cited.add(trimmed);
  }
  for (const [, path = ''] of visible.matchAll(MODULE_PATH)) {
    if (!path.includes('/') && !declaration) continue;
    if (SOURCES.some((source) => source === path || source.endsWith(`/${path}`))) cited.add(path);
  }
  return [...cited];
}

describe('the packed files', () => {
  let files: readonly PackedFile[];
  beforeAll(async () => {
    ({ files } = await sharedPackage());
  }, 300_000);

  it('cite no file of the repository the tarball lacks: the docs and the declarations', () => {
    const packed = files.map((file) => file.path);
    const holds = (path: string) => packed.some((file) => file === path || file.endsWith(`/${path}`));
    // CONTRIBUTING.md is the map of the repository for those who work on it: its paths are the point.
    const read = packed.filter((path) => /\.(md|d\.ts|d\.cts)$/.test(path) && path !== 'CONTRIBUTING.md');
    expect(read.length).toBeGreaterThan(10);

    const dangling = read.flatMap((path) =>
      citations(readFileSync(join(REPO_ROOT, path), 'utf8'), /\.d\.c?ts$/.test(path))
        .filter((cited) => !holds(cited))
        .map((cited) => `${path} cites ${cited}`),
    );
    expect(dangling).toEqual([]);
  });
});
