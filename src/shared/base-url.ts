/**
 * The one rule for a base URL of the Animal Store, which the client and the fake both enforce.
 *
 * @module
 */

/** A base URL that passed the check: its origin, and its path without trailing slashes. */
export interface CheckedBaseUrl {
  readonly origin: string;
  /** The path, ending in `/v1`. */
  readonly path: string;
}

/** The rule, as every problem message starts. */
export const BASE_URL_RULE =
  'baseUrl must be an absolute http(s) URL ending in /v1, without credentials, query or fragment';

/** The URL's origin and path, or the problem, quoting the URL; each caller throws its own error. */
export function checkBaseUrl(input: string | URL): CheckedBaseUrl | { readonly problem: string } {
  let url: URL | undefined;
  try {
    url = new URL(input);
  } catch {}
  const path = url?.pathname.replace(/\/+$/, '');
  if (
    url &&
    path?.endsWith('/v1') &&
    /^https?:$/.test(url.protocol) &&
    !(url.search || url.hash || url.username || url.password)
  ) {
    return { origin: url.origin, path };
  }
  return { problem: `${BASE_URL_RULE}; got "${url?.href ?? String(input)}"` };
}
