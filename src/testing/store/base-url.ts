/**
 * The fake Animal Store's base URL: checking it, and placing request URLs relative to it.
 *
 * @module
 */
import { checkBaseUrl } from '../../shared/base-url.js';

/**
 * The base URL a fake store serves when none is given. The `.test` top-level domain is reserved
 * (RFC 2606), so the address can never reach a real host.
 */
export const DEFAULT_BASE_URL = 'http://animal-store.test/v1';

/**
 * A checked base URL: the origin, and the path (ending in `/v1`, without a trailing slash).
 */
export interface BaseUrl {
  /** Origin and path, without a trailing slash. */
  readonly href: string;
  /** Scheme, host and port. */
  readonly origin: string;
  /** The path, ending in `/v1`. */
  readonly path: string;
}

/**
 * Checks a base URL: an absolute http(s) URL without query or fragment whose path ends in `/v1`, like
 * both real deployments (a trailing slash is fine).
 *
 * @throws TypeError when it is not such a URL.
 */
export function parseBaseUrl(input: string | URL): BaseUrl {
  const checked = checkBaseUrl(input);
  if ('problem' in checked) throw new TypeError(`${checked.problem} (like ${DEFAULT_BASE_URL})`);
  return { href: `${checked.origin}${checked.path}`, ...checked };
}

/**
 * The path of `url` relative to the base path (`/pets`, `/pets/1`, or `''` for the base itself), or
 * `undefined` when `url` is not under it.
 */
export function pathUnder(url: URL, basePath: string): string | undefined {
  const { pathname } = url;
  if (pathname === basePath) return '';
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  return pathname.slice(basePath.length);
}
