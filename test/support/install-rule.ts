/**
 * The one rule for a command the suite runs: whether it could resolve a package version that is not
 * pinned. `run()` refuses such a command, and test/release/pinned-installs.test.ts finds any in the
 * sources, so both read this.
 *
 * @module
 */

/** npm's commands that resolve packages from the registry (with their aliases). */
const RESOLVING_NPM_VERBS = new Set([
  'install',
  'i',
  'in',
  'add',
  'update',
  'up',
  'upgrade',
  'exec',
  'x',
  'create',
  'init',
]);

/**
 * Why `command args` could resolve an unpinned version, or `undefined` when it cannot: npm's
 * resolving commands must carry the registry pin's `--before`, and npx must never install (`--no`).
 * `npm ci` resolves from the lockfile; `npm pack` of the project itself resolves nothing.
 */
export function whyUnpinned(command: string, args: readonly string[]): string | undefined {
  const name = command.replace(/^.*[\\/]/, '');
  if (name === 'npx') {
    return args.includes('--no') ? undefined : 'npx may install what it runs: give it --no';
  }
  if (name !== 'npm' || args.some((arg) => arg.startsWith('--before='))) return undefined;
  const [verb = '', ...rest] = args;
  // `npm pack SPEC` fetches SPEC; `npm pack --flags` packs the project in the working directory.
  const packsASpec = verb === 'pack' && rest[0] !== undefined && !rest[0].startsWith('-');
  if (!RESOLVING_NPM_VERBS.has(verb) && !packsASpec) return undefined;
  if (verb === 'init' && rest.every((arg) => arg.startsWith('-'))) return undefined;
  return `npm ${verb} resolves from the registry: run it with pinnedNpm() (test/support/registry-pin.ts)`;
}
