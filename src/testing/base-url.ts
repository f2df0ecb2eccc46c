/**
 * The fake Animal Store's base URL: checking it, and placing request URLs relative to it.
 *
 * @module
 */

/**
 * The base URL a fake store serves when none is given. The `.test` top-level domain is reserved
 * (RFC 2606), so the address can never reach a real host.
 *
 * @example
 * ```ts
 * import { DEFAULT_BASE_URL, createFakePetStore } from 'animal-store-sdk/testing';
 *
 * createFakePetStore().baseUrl === DEFAULT_BASE_URL; // true
 * ```
 */
export const DEFAULT_BASE_URL = 'http://animal-store.test/v1';

/**
 * A checked base URL: the origin, and the path (ending in `/v1`, without a trailing slash).
 *
 * @example
 * ```ts
 * import { parseBaseUrl } from './base-url.js';
 *
 * parseBaseUrl('http://animal-store.test/v1/'); // { href: 'http://animal-store.test/v1', origin: 'http://animal-store.test', path: '/v1' }
 * ```
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
 *
 * @example
 * ```ts
 * import { parseBaseUrl } from './base-url.js';
 *
 * parseBaseUrl('https://staging.example.com/api/v1').path; // '/api/v1'
 * parseBaseUrl('https://staging.example.com/api'); // throws TypeError
 * ```
 */
export function parseBaseUrl(input: string | URL): BaseUrl {
  const problem = `baseUrl must be an absolute http(s) URL ending in /v1, like ${DEFAULT_BASE_URL}`;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new TypeError(`${problem}; got "${String(input)}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`${problem}; got the scheme "${url.protocol}" in "${url.href}"`);
  }
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') {
    throw new TypeError(`${problem}, without credentials, query or fragment; got "${url.href}"`);
  }
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  if (!path.endsWith('/v1')) {
    throw new TypeError(`${problem}; got "${url.href}"`);
  }
  return { href: `${url.origin}${path}`, origin: url.origin, path };
}

/**
 * The path of `url` relative to the base path (`/pets`, `/pets/1`, or `''` for the base itself), or
 * `undefined` when `url` is not under it.
 *
 * @example
 * ```ts
 * import { pathUnder } from './base-url.js';
 *
 * pathUnder(new URL('http://animal-store.test/v1/pets?limit=5'), '/v1'); // '/pets'
 * pathUnder(new URL('http://animal-store.test/v2/pets'), '/v1'); // undefined
 * ```
 */
export function pathUnder(url: URL, basePath: string): string | undefined {
  const { pathname } = url;
  if (pathname === basePath) return '';
  if (!pathname.startsWith(`${basePath}/`)) return undefined;
  return pathname.slice(basePath.length);
}
