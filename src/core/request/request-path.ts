/**
 * Keeping a raw request's path under the base URL, where the API key may go, and naming the
 * endpoint a path reaches.
 *
 * @module
 */

/** RFC 3986 `pchar` plus `/`: what a path may hold before percent-decoding. */
const PATH_CHARACTERS = /^[\w\-.~!$&'()*+,;=:@%/]*$/;

/**
 * Why `path` (a leading `/` optional) cannot be sent under the base URL, or `undefined` when it can:
 * it refuses whatever the URL parser would resolve or re-encode, so an accepted path joined to the
 * base URL is sent exactly as written (test/properties/raw-request-path.test.ts).
 */
export function pathProblem(path: string): string | undefined {
  if (/[?#]/.test(path)) return 'Must not contain "?" or "#"; pass query parameters as `query`';
  // A scheme (`https:`, `javascript:`, `c:`) or `//` would leave the base URL.
  if (/^[a-z][a-z\d+.-]*:|\/\//i.test(path)) return 'Must be relative to the base URL, without "//"';
  if (!PATH_CHARACTERS.test(path)) {
    return 'May only contain URL path characters (no backslash); encode others with encodeURIComponent';
  }
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'Contains a malformed percent-encoding';
    }
    if (/^\.\.?$|[/\\]/.test(decoded))
      return 'Must not contain a "." or ".." segment, or an encoded "/" or "\\"';
  }
  return undefined;
}

/** Whether a redirect's `url` is under `baseUrl` (which ends in `/`): same origin, a path {@link pathProblem} accepts. */
export function isUnder(baseUrl: string, url: URL): boolean {
  const base = new URL(baseUrl);
  const { pathname } = url;
  return (
    url.origin === base.origin &&
    pathname.startsWith(base.pathname) &&
    !pathProblem(pathname.slice(base.pathname.length))
  );
}

/** `/pets/{id}`: numeric segments folded, so that warnings and traces name an endpoint, not a record. */
export function endpoint(path: string): string {
  return `/${path}`.replace(/\/\d+(?=\/|$)/g, '/{id}');
}
