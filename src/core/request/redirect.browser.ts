/**
 * The browser build's redirect rule: a browser answers `redirect: 'manual'` with an opaque
 * response that hides where a redirect points, so it follows none: it fetches with
 * `redirect: 'error'`, and the browser itself refuses every redirect before sending anything. The
 * call fails as a connection error, whose hint names redirects (cors.ts).
 *
 * @module
 */
export const REDIRECT: RequestRedirect = 'error';

export const followRedirects = async (response: Response, ..._: unknown[]): Promise<Response> => response;
