/**
 * Keeping a raw request's path under the base URL. The API key travels with every request, so a
 * path that could lead anywhere else (another origin, or another part of the same origin) is
 * refused before anything is sent. And the endpoint a path names, for traces and warnings.
 *
 * @module
 */

/** RFC 3986 `pchar` plus `/`: what a path may hold before percent-decoding. */
const PATH_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

/** A URL scheme at the start: `https:`, `javascript:`, `c:`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/**
 * Why `path` cannot be sent under the base URL, or `undefined` when it can.
 *
 * The rules: a path relative to the base URL (a leading `/` is optional) made of RFC 3986 path
 * characters; no scheme, no `//` anywhere (so no protocol-relative URL and no empty segment), no
 * backslash, no query or fragment (`query` carries parameters), no `.` or `..` segment, written
 * plainly or percent-encoded in any case (`%2e%2E`), no encoded `/` or `\` (`%2f`, `%5c`), and only
 * well-formed percent-encoded UTF-8.
 */
export function pathProblem(path: string): string | undefined {
  if (path.includes('\\')) return 'must not contain a backslash';
  if (/[?#]/.test(path)) return 'must not contain "?" or "#"; pass query parameters as `query`';
  if (SCHEME.test(path)) return 'must be relative to the base URL';
  if (path.includes('//')) return 'must not contain "//"';
  if (!PATH_CHARACTERS.test(path)) {
    return 'may only contain URL path characters; encode others with encodeURIComponent';
  }
  // A leading `/` makes an empty first segment, which passes every check below.
  for (const segment of path.split('/')) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      return 'contains a malformed percent-encoding';
    }
    if (/^\.\.?$/.test(decoded)) return 'must not contain "." or ".." segments, encoded or not';
    if (/[/\\]/.test(decoded)) return 'must not contain an encoded "/" or "\\" (%2F, %5C)';
  }
  return undefined;
}

/**
 * Whether `relative` (a path without its leading `/`) stays under `baseUrl` (which ends in `/`): the
 * URL parser, asked after {@link pathProblem}, keeps the joined URL exactly as written.
 */
export function staysUnder(baseUrl: string, relative: string): boolean {
  const url = baseUrl + relative;
  try {
    return new URL(url).href === url;
  } catch {
    return false;
  }
}

/**
 * Whether `url` is under `baseUrl` (which ends in `/`): its origin, and a path under the base URL's
 * that {@link pathProblem} accepts once decoded. The one rule for raw requests and redirects alike.
 */
export function isUnder(baseUrl: string, url: URL): boolean {
  const base = new URL(baseUrl);
  const { pathname } = url;
  return (
    url.origin === base.origin &&
    pathname.startsWith(base.pathname) &&
    !pathProblem(pathname.slice(base.pathname.length))
  );
}

/**
 * `/pets/{id}`: the path with numeric segments folded, so warnings, waits and traces name an
 * endpoint, not a record.
 */
export function endpoint(path: string): string {
  return `/${path}`.replace(/\/\d+(?=\/|$)/g, '/{id}');
}
