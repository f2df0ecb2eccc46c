/**
 * Every relative link of the Markdown documents resolves: to a file in the repository, and to a
 * heading in it when the link names one; and the documents the package ships link only to files
 * the package holds, so a reader of the README on npm or in node_modules meets no dead link.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  'CHANGELOG.md',
  ...readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

interface Link {
  readonly from: string;
  /** The target file, relative to the repository. */
  readonly file: string;
  readonly anchor: string | undefined;
}

/** The relative links and images of a document, code blocks left out. */
function linksOf(document: string): Link[] {
  const text = readFileSync(join(root, document), 'utf8').replace(/```[\s\S]*?```/g, '');
  const links: Link[] = [];
  for (const [, target] of text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    if (target === undefined || /^[a-z]+:/i.test(target)) continue;
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? document : normalize(join(dirname(document), path));
    links.push({ from: document, file, anchor });
  }
  return links;
}

/** GitHub's anchors for a document's headings. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const anchors = new Set<string>();
  for (const [, heading] of text.matchAll(/^#{1,6} (.+)$/gm)) {
    anchors.add(
      (heading ?? '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    );
  }
  return anchors;
}

const links = DOCUMENTS.flatMap(linksOf);

describe('the documents’ links', () => {
  it('resolve in the repository, headings included', () => {
    expect(links.length).toBeGreaterThan(20);
    const broken = links
      .filter(
        (link) =>
          !existsSync(join(root, link.file)) ||
          (link.anchor !== undefined && link.file.endsWith('.md') && !anchorsOf(link.file).has(link.anchor)),
      )
      .map((link) => `${link.from} -> ${link.file}${link.anchor === undefined ? '' : `#${link.anchor}`}`);
    expect(broken).toEqual([]);
  });

  it('in the documents the package ships, point only to files it ships', () => {
    const [pack] = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: root,
        encoding: 'utf8',
      }),
    ) as [{ files: { path: string }[] }];
    const shipped = new Set(pack.files.map((file) => file.path));
    const dead = links
      .filter((link) => shipped.has(link.from) && !shipped.has(relative('.', link.file)))
      .map((link) => `${link.from} -> ${link.file}`);

    expect(shipped.has('README.md')).toBe(true);
    expect(shipped.has('docs/fake-server.md')).toBe(true);
    expect(dead).toEqual([]);
  }, 60_000);
});
