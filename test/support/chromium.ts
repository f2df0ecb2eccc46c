/**
 * Where the browser checks find Chromium, and how they launch it. The system's Chromium is used,
 * never a browser that a package downloads: `CHROME_PATH` when set, else Debian's /usr/bin/chromium.
 *
 * @module
 */
import { accessSync, constants } from 'node:fs';

/** Debian's `chromium` package installs the browser here. */
export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/** Headless Chromium as root in a container, kept off the network it does not need. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const HOW_TO_GET_IT =
  'The browser tests need Chromium. On Debian or Ubuntu: `apt-get install -y chromium`; ' +
  'elsewhere, set CHROME_PATH to a Chromium or Chrome executable.';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Chromium executable to launch, or an explanation of how to get one.
 *
 * @param env - The environment to read `CHROME_PATH` from.
 */
export function locateChromium(
  env: NodeJS.ProcessEnv = process.env,
): { found: true; path: string } | { found: false; message: string } {
  const configured = env.CHROME_PATH?.trim();
  if (configured) {
    return isExecutable(configured)
      ? { found: true, path: configured }
      : {
          found: false,
          message: `CHROME_PATH is ${configured}, which is not an executable file. ${HOW_TO_GET_IT}`,
        };
  }
  return isExecutable(DEFAULT_CHROMIUM_PATH)
    ? { found: true, path: DEFAULT_CHROMIUM_PATH }
    : { found: false, message: `Chromium was not found at ${DEFAULT_CHROMIUM_PATH}. ${HOW_TO_GET_IT}` };
}

/**
 * The Chromium executable to launch.
 *
 * @throws Error with a plain message saying how to install Chromium, when there is none.
 */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  const chromium = locateChromium(env);
  if (!chromium.found) throw new Error(chromium.message);
  return chromium.path;
}
