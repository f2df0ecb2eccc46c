/**
 * Where the multi-process tests find `redis-server`: `REDIS_SERVER_PATH` when set, else Debian's
 * /usr/bin/redis-server. The tests start their own instances of it; none is downloaded.
 *
 * @module
 */
import { accessSync, constants } from 'node:fs';

/** Debian's `redis-server` package installs the server here. */
export const DEFAULT_REDIS_SERVER_PATH = '/usr/bin/redis-server';

const HOW_TO_GET_IT =
  'The multi-process tests (test/fleet) need redis-server. On Debian or Ubuntu: ' +
  '`apt-get install -y redis-server`; on macOS: `brew install redis`; elsewhere, set REDIS_SERVER_PATH ' +
  'to a redis-server executable.';

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The redis-server executable to start, or an explanation of how to get one.
 *
 * @param env - The environment to read `REDIS_SERVER_PATH` from.
 */
export function locateRedisServer(
  env: NodeJS.ProcessEnv = process.env,
): { found: true; path: string } | { found: false; message: string } {
  const configured = env.REDIS_SERVER_PATH?.trim();
  if (configured) {
    return isExecutable(configured)
      ? { found: true, path: configured }
      : {
          found: false,
          message: `REDIS_SERVER_PATH is ${configured}, which is not an executable file. ${HOW_TO_GET_IT}`,
        };
  }
  return isExecutable(DEFAULT_REDIS_SERVER_PATH)
    ? { found: true, path: DEFAULT_REDIS_SERVER_PATH }
    : {
        found: false,
        message: `redis-server was not found at ${DEFAULT_REDIS_SERVER_PATH}. ${HOW_TO_GET_IT}`,
      };
}
