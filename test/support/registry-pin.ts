/**
 * The one pin of every project the suite installs outside the repository: the npm registry as it
 * stood at the date in test/registry-pin.json. npm resolves each range to the newest version published
 * before that date (`--before`), so an install gives the same tree on every day, and a release
 * published since cannot break the suite. `npm run pin:registry` moves the date (CONTRIBUTING.md).
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { REPO_ROOT } from '../package/support/repo.js';
import { type RunOptions, type RunOutput, run } from '../package/support/run.js';

/** The file that holds the pin; `npm run pin:registry` rewrites it. */
export const REGISTRY_PIN_FILE = 'test/registry-pin.json';

/** The registry date every install resolves from, as an ISO 8601 timestamp. */
export const REGISTRY_PIN: string = (
  JSON.parse(readFileSync(`${REPO_ROOT}${REGISTRY_PIN_FILE}`, 'utf8')) as { before: string }
).before;

/** The npm flag that holds an install to the pin. */
export const PIN_FLAG = `--before=${REGISTRY_PIN}`;

/**
 * Runs an npm command that resolves packages from the registry (install, pack of a spec) with the
 * pin; a failure says which pin the install used and how to move it.
 */
export async function pinnedNpm(args: readonly string[], options: RunOptions): Promise<RunOutput> {
  try {
    // No --prefer-offline: npm revalidates each cached packument (a 304 when unchanged), so one cached
    // before the pin moved cannot hide the versions published since; tarballs still come from the cache.
    return await run('npm', [...args, PIN_FLAG, '--no-audit', '--no-fund'], options);
  } catch (error) {
    throw new Error(
      `An install pinned to the registry as of ${REGISTRY_PIN} (${REGISTRY_PIN_FILE}) failed; ` +
        `\`npm run pin:registry\` moves the pin (CONTRIBUTING.md).\n${(error as Error).message}`,
      { cause: error },
    );
  }
}

/**
 * A packument cut to the versions published before the pin, for a registry the suite serves itself:
 * `latest` stays when it was published by then, else it is the highest stable version left.
 */
export function packumentAtPin(packument: Packument): Packument {
  const pin = Date.parse(REGISTRY_PIN);
  const versions = Object.fromEntries(
    Object.entries(packument.versions ?? {}).filter(
      ([version]) => Date.parse(packument.time?.[version] ?? '') < pin,
    ),
  );
  const tags = Object.fromEntries(
    Object.entries(packument['dist-tags'] ?? {}).filter(([, version]) => version in versions),
  );
  const [highest] = Object.keys(versions)
    .filter((version) => /^\d+\.\d+\.\d+$/.test(version))
    .sort((a, b) => compareVersions(b, a));
  if (tags.latest === undefined && highest !== undefined) tags.latest = highest;
  return { ...packument, versions, 'dist-tags': tags };
}

function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  const differs = [0, 1, 2].find((part) => x[part] !== y[part]);
  return differs === undefined ? 0 : (x[differs] ?? 0) - (y[differs] ?? 0);
}

/** The parts of a registry packument the pin reads. */
export interface Packument {
  readonly versions?: Record<string, unknown>;
  readonly time?: Record<string, string>;
  readonly 'dist-tags'?: Record<string, string>;
}
