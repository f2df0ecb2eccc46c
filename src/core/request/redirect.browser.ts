/**
 * The browser build's redirect rule: a browser answers `redirect: 'manual'` with an opaque
 * response that hides where the redirect points, so none is followed.
 *
 * @module
 */
import { RedirectError } from '../../errors.js';
import type { RedirectingCall } from './redirect.js';

export const followRedirects = async (
  response: Response,
  _request: Request,
  _send: unknown,
  { where }: RedirectingCall,
): Promise<Response> => {
  if (response.type !== 'opaqueredirect') return response;
  throw new RedirectError(
    `The service redirected ${where}; a browser hides where, so nothing was sent there.`,
    0,
    undefined,
  );
};
