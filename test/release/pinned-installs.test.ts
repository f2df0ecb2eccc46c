/**
 * Every project the suite installs resolves from the registry pin (test/registry-pin.json), so the
 * suite gives the same result on every day: no npm or npx command in the repository's scripts and
 * tests may resolve a version the pin does not hold, and a failing install names the pin.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PINNED_NODE, REPO_ROOT } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { whyUnpinned } from '../support/install-rule.js';
import { pinnedNpm, REGISTRY_PIN, REGISTRY_PIN_FILE } from '../support/registry-pin.js';

/** The module that adds the pin to the npm commands it is given, and this file, whose samples break the rule. */
const EXEMPT = ['test/support/registry-pin.ts', 'test/release/pinned-installs.test.ts'];

/** Calls that start a process, with the command as their first argument. */
const SPAWN = /\b(?:run|execFile|execFileSync|spawn|spawnSync)\)?\(\s*'(npm|npx)'\s*,\s*/g;

/** The text of the bracketed expression that starts at `start`, brackets inside it matched. */
function bracketed(text: string, start: number): string {
  let depth = 0;
  for (let index = start; index < text.length; index++) {
    if (text[index] === '[') depth++;
    if (text[index] === ']' && --depth === 0) return text.slice(start + 1, index);
  }
  return text.slice(start + 1);
}

/** An array literal's elements: a string literal's value, `<expression>` for anything else. */
function elements(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const character of list) {
    if ('([{'.includes(character)) depth++;
    if (')]}'.includes(character)) depth--;
    if (character === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else {
      current += character;
    }
  }
  parts.push(current);
  return parts
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => /^'([^']*)'$/.exec(part)?.[1] ?? '<expression>');
}

/** The npm and npx commands a source file starts, each as `line: why it is unpinned`. */
function unpinnedCommands(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const match of text.matchAll(SPAWN)) {
    const line = text.slice(0, match.index).split('\n').length;
    const argumentsAt = match.index + match[0].length;
    if (text[argumentsAt] !== '[') {
      problems.push(
        `${file}:${line}: ${match[1]}'s arguments are not an array literal, so they cannot be checked`,
      );
      continue;
    }
    const why = whyUnpinned(match[1] ?? '', elements(bracketed(text, argumentsAt)));
    if (why !== undefined) problems.push(`${file}:${line}: ${why}`);
  }
  // Shell lines: CI's script and any shell script the suite runs.
  if (!/\.[cm]?[jt]s$/.test(file)) {
    text.split('\n').forEach((shellLine, index) => {
      const words = shellLine.replace(/#.*/, '').trim().split(/\s+/);
      const at = words.findIndex((word) => word === 'npm' || word === 'npx');
      const why = at < 0 ? undefined : whyUnpinned(words[at] ?? '', words.slice(at + 1));
      if (why !== undefined) problems.push(`${file}:${index + 1}: ${why}`);
    });
  }
  return problems;
}

describe('every install the suite runs is pinned', () => {
  it('no npm or npx command in the scripts, tests and examples could resolve an unpinned version', async () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => /^(test|examples|build|\.ci)\/|^[^/]+\.config\.ts$/.test(file))
      .filter((file) => /\.([cm]?[jt]s|sh)$|^\.ci\/run$/.test(file) && !EXEMPT.includes(file));
    expect(files).toContain('.ci/run');
    const problems: string[] = [];
    for (const file of files) {
      problems.push(...unpinnedCommands(file, await readFile(join(REPO_ROOT, file), 'utf8')));
    }
    expect(problems).toEqual([]);
  });

  it('the scan finds an unpinned install, an npx that may install and a fetched pack, each with its file', () => {
    const source = [
      "await run('npm', ['install', tarball, 'msw@^3'], options);",
      "await run('npx', ['msw', 'init', 'public'], options);",
      "execFileSync('npm', ['pack', spec, '--json']);",
      "await run('npm', ['pack', '--json', '--pack-destination', directory], options);",
      "await run('npx', ['--no', 'msw', 'init', 'public'], options);",
      "await run('npm', ['ci'], options);",
    ].join('\n');
    expect(unpinnedCommands('test/example.ts', source)).toEqual([
      'test/example.ts:1: npm install resolves from the registry: run it with pinnedNpm() (test/support/registry-pin.ts)',
      'test/example.ts:2: npx may install what it runs: give it --no',
      'test/example.ts:3: npm pack resolves from the registry: run it with pinnedNpm() (test/support/registry-pin.ts)',
    ]);
    expect(unpinnedCommands('.ci/run', 'npm ci\nnpm install left-pad  # a comment\nnpm test')).toEqual([
      '.ci/run:2: npm install resolves from the registry: run it with pinnedNpm() (test/support/registry-pin.ts)',
    ]);
  });

  describe('at run time', () => {
    let directory: string;
    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), 'animal-store-pin-'));
    });
    afterAll(() => rm(directory, { recursive: true, force: true }));

    it('run() refuses an unpinned install before starting it', async () => {
      await expect(
        run('npm', ['install', 'left-pad'], { cwd: directory, node: PINNED_NODE }),
      ).rejects.toThrow(/^`npm install left-pad` not run: npm install resolves from the registry/);
    });

    it('a failing pinned install says which pin it used and how to move it', async () => {
      const failure = pinnedNpm(['install', join(directory, 'missing.tgz')], {
        cwd: directory,
        node: PINNED_NODE,
      });
      await expect(failure).rejects.toThrow(
        `An install pinned to the registry as of ${REGISTRY_PIN} (${REGISTRY_PIN_FILE}) failed; \`npm run pin:registry\` moves the pin`,
      );
      await expect(failure).rejects.toThrow(`--before=${REGISTRY_PIN}`);
    }, 60_000);
  });
});
