/**
 * The release path from a fresh clone of the repository's last commit, with no dist/: `npm pack` and
 * `npm publish --dry-run` build the package first (`prepack`) and hold every file the manifest points
 * at. The clone borrows the repository's node_modules (a link), as `npm ci` would install the same.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { manifestTargets, readManifest } from '../package/support/built-package.js';
import { log } from '../package/support/log.js';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';

let directory: string;
let clone: string;
let commit: string;

/** The files of an `npm pack --json` or `npm publish --json` report, after what the build printed. */
function reportedFiles(stdout: string): string[] {
  const json = stdout.slice(stdout.search(/^[[{]$/m));
  const report = JSON.parse(json) as
    | [{ files: { path: string }[] }]
    | Record<string, { files: { path: string }[] }>;
  const [entry] = Array.isArray(report) ? report : Object.values(report);
  return (entry?.files ?? []).map((file) => file.path).sort();
}

beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'animal-store-release-'));
  clone = join(directory, 'clone');
  commit = (await run('git', ['rev-parse', 'HEAD'], { cwd: REPO_ROOT, node: PINNED_NODE })).stdout.trim();
  await run('git', ['clone', '--quiet', '--no-checkout', REPO_ROOT, clone], {
    cwd: directory,
    node: PINNED_NODE,
  });
  await run('git', ['checkout', '--quiet', commit], { cwd: clone, node: PINNED_NODE });
  await symlink(join(REPO_ROOT, 'node_modules'), join(clone, 'node_modules'), 'dir');
  log(`fresh clone of ${commit} in ${clone}`);
}, 60_000);

afterAll(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

it('npm pack in a fresh clone builds dist/ first and packs every file the manifest names', async () => {
  const manifest = await readManifest();
  expect(existsSync(join(clone, 'dist'))).toBe(false);

  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', directory], {
    cwd: clone,
    node: PINNED_NODE,
  });
  const files = reportedFiles(stdout);
  log(`  npm pack: ${files.length} files`);

  expect(files).toEqual(expect.arrayContaining([...manifestTargets(manifest), 'package.json', 'README.md']));
  expect(
    files.filter(
      (path) =>
        !/^(dist\/.+|docs\/.+\.(md|svg)|package\.json|README\.md|CONTRIBUTING\.md|CHANGELOG\.md|LICENSE)$/.test(
          path,
        ),
    ),
  ).toEqual([]);
}, 120_000);

it('npm publish --dry-run in the clone publishes the same files, with package.json as written', async () => {
  await rm(join(clone, 'dist'), { recursive: true, force: true });

  const { stdout, stderr } = await run('npm', ['publish', '--dry-run', '--json'], {
    cwd: clone,
    node: PINNED_NODE,
  });
  const files = reportedFiles(stdout);
  const packed = reportedFiles(
    (await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: clone, node: PINNED_NODE }))
      .stdout,
  );
  log(`  npm publish --dry-run: ${files.length} files`);

  expect(files).toEqual(packed);
  expect(files).toContain('dist/index.js');
  // npm rewrites a manifest it finds fault with, and says so; the published one must be as written.
  expect(stderr).not.toMatch(/auto-corrected|errors corrected/);
}, 120_000);
