/**
 * The OpenTelemetry setups of docs/observability.md as a user copies them: an install command and
 * the code blocks named by a file, and a tsconfig as a new project has one, to type-check them.
 *
 * @module
 */
import { join } from 'node:path';
import { REPO_ROOT } from '../../package/support/repo.js';

/** The body of the code block whose fence reads exactly "```" + `info`. */
export function block(markdown: string, info: string): string {
  const lines = markdown.split('\n');
  const open = lines.indexOf(`\`\`\`${info}`);
  if (open === -1) throw new Error(`docs/observability.md has no \`\`\`${info} block`);
  const close = lines.indexOf('```', open + 1);
  return `${lines.slice(open + 1, close).join('\n')}\n`;
}

/**
 * The packages of the docs' `npm install animal-store-sdk …` line that names `marker`, the package
 * itself left out (the test installs the packed tarball in its place).
 */
export function installedPackages(markdown: string, marker: string): string[] {
  const line = markdown
    .split('\n')
    .find((text) => text.startsWith('npm install animal-store-sdk ') && text.includes(marker));
  if (line === undefined) throw new Error(`docs/observability.md has no npm install line with ${marker}`);
  return line.split(/\s+/).slice(3);
}

/** A strict tsconfig for `files`, bundler resolution (as Next.js), Node's types from the repository. */
export function tsconfig(files: readonly string[]): string {
  const compilerOptions = {
    target: 'es2023',
    module: 'preserve',
    moduleResolution: 'bundler',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ['node'],
    typeRoots: [join(REPO_ROOT, 'node_modules/@types')],
  };
  return JSON.stringify({ compilerOptions, include: files }, null, 2);
}
