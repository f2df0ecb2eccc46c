/**
 * The runtimes the scenario runs on besides Node: their binaries come from npm packages installed by
 * `npm ci` (bun, deno, workerd). One that does not start on a machine (another platform, an old libc)
 * is left out with a line saying so; under CI (`CI` set) it fails the run instead, as a missing
 * Chromium does.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** A runtime binary that runs here. */
export interface RuntimeBinary {
  readonly name: string;
  readonly path: string;
  /** The version `--version` printed. */
  readonly version: string;
}

const BIN = fileURLToPath(new URL('../../../node_modules/.bin/', import.meta.url));

/** The binaries by the name the tests give them. */
export const RUNTIME_BINARIES = {
  Bun: `${BIN}bun`,
  Deno: `${BIN}deno`,
  workerd: `${BIN}workerd`,
} as const;

/** The binary of `name` when it runs here, else why not. */
export function findRuntime(
  name: keyof typeof RUNTIME_BINARIES,
): RuntimeBinary | { readonly missing: string } {
  const path = RUNTIME_BINARIES[name];
  try {
    const output = execFileSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000, stdio: 'pipe' });
    return { name, path, version: /\d[\w.-]*/.exec(output)?.[0] ?? output.trim() };
  } catch (error) {
    return {
      missing:
        `${name} does not run here (${path}: ${(error as Error).message.split('\n')[0]}). ` +
        `npm ci installs it from the \`${name.toLowerCase()}\` package for Linux, macOS and Windows on x64 and arm64.`,
    };
  }
}

/**
 * The binary of `name` when it runs here, else `undefined` after saying what is not run (`notRun`);
 * under CI a missing runtime throws instead.
 */
export function locateRuntime(
  name: keyof typeof RUNTIME_BINARIES,
  notRun: string,
): RuntimeBinary | undefined {
  const found = findRuntime(name);
  if (!('missing' in found)) return found;
  if (process.env.CI) throw new Error(found.missing);
  console.warn(`\n${found.missing}\nNot run here: ${notRun}.\n`);
  return undefined;
}
