/**
 * The browser build follows no redirect: a browser hides where one points from `redirect: 'manual'`,
 * so it fetches with `redirect: 'error'` and the browser refuses each before sending anything; the
 * transport follows redirects only under `manual`, so `followRedirects` is here for the same exports.
 *
 * @module
 */
export const REDIRECT: RequestRedirect = 'error';

export const followRedirects = async (response: Response, ..._: unknown[]): Promise<Response> => response;
