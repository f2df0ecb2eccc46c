/**
 * The files of an app that docs/frameworks.md shows: each block whose fence names a file of the
 * fixture, so that the test building the app runs the code the guide shows.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { markdownBlocks } from '../../docs/snippets.js';
import { REPO_ROOT } from '../../package/support/repo.js';
import { fixtureDirectory } from './built-app.js';

/** The guide the blocks are in. */
export const GUIDE = 'docs/frameworks.md';

/** A file the guide shows: its path in the app, the block's code and the fixture's file. */
export interface DocumentedFile {
  readonly file: string;
  readonly documented: string;
  readonly actual: string;
}

/** The guide's blocks that name a file of `fixture`, each with that file's content. */
export function documentedFiles(fixture: string): DocumentedFile[] {
  const directory = fixtureDirectory(fixture);
  return markdownBlocks(join(REPO_ROOT, GUIDE), REPO_ROOT).flatMap((block) => {
    if (block.info === '') return [];
    let actual: string;
    try {
      actual = readFileSync(join(directory, block.info), 'utf8');
    } catch {
      return [];
    }
    return [{ file: block.info, documented: `${block.code}\n`, actual }];
  });
}
