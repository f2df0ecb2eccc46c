/**
 * The one rule for a base URL of the Animal Store, which the client and the fake both enforce: an
 * absolute http(s) URL, without credentials, query or fragment, whose path ends in `/v1` like both
 * real deployments (trailing slashes are fine).
 *
 * @module
 */

/** A base URL that passed the check: its origin, and its path without trailing slashes. */
export interface CheckedBaseUrl {
  readonly origin: string;
  /** The path, ending in `/v1`. */
  readonly path: string;
}

/** The rule, which every problem message starts with. */
export const BASE_URL_RULE =
  'baseUrl must be an absolute http(s) URL ending in /v1, without credentials, query or fragment';

/**
 * Checks a base URL against the rule: the URL's origin and path, or the problem, a sentence starting
 * with {@link BASE_URL_RULE} that quotes the URL. Each caller throws its own error class.
 */
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
