/**
 * Where the fake HTTP server puts its control API and its sessions: the one rule the server routes by
 * and `connectFakePetStore` finds a store's control URL by.
 *
 * - the control API is `/__fake` at the server's root, outside every base URL;
 * - a session `<id>` serves its API at `/sessions/<id>` followed by the server's base path
 *   (`/sessions/<id>/v1`), and its control API at `/__fake/sessions/<id>`.
 *
 * @module
 */

/** The path of the control API, at the server's root. */
export const CONTROL_PATH = '/__fake';

const SESSIONS = '/sessions';

/** The path a session's API is served at. */
export function sessionBasePath(id: string, rootBasePath: string): string {
  return `${SESSIONS}/${id}${rootBasePath}`;
}

/** The path of a session's control API. */
export function sessionControlPath(id: string): string {
  return `${CONTROL_PATH}${SESSIONS}/${id}`;
}

/** The session a path of the server's API belongs to, and the path after `/sessions/<id>`; else `undefined`. */
export function sessionOfApiPath(path: string): { readonly id: string; readonly rest: string } | undefined {
  const match = /^\/sessions\/([^/]+)(\/.*)?$/.exec(path);
  return match?.[1] === undefined ? undefined : { id: match[1], rest: match[2] ?? '' };
}

/**
 * Whose control API a control path addresses (the root store's or a session's), and the path after it:
 * `/__fake/pets` → root, `/pets`; `/__fake/sessions/<id>/pets` → `<id>`, `/pets`. `undefined` when
 * the path is not under the control API.
 */
export function controlTarget(
  path: string,
): { readonly session: string | undefined; readonly rest: string } | undefined {
  if (path !== CONTROL_PATH && !path.startsWith(`${CONTROL_PATH}/`)) return undefined;
  const rest = path.slice(CONTROL_PATH.length);
  const session = /^\/sessions\/([^/]+)(\/.*)?$/.exec(rest);
  if (session?.[1] === undefined) return { session: undefined, rest };
  return { session: session[1], rest: session[2] === '/' ? '' : (session[2] ?? '') };
}

/** The control URL of the store served at `baseUrl` (the root's or a session's), on the same server. */
export function controlUrlOf(baseUrl: URL): string {
  const session = sessionOfApiPath(baseUrl.pathname);
  return `${baseUrl.origin}${session === undefined ? CONTROL_PATH : sessionControlPath(session.id)}`;
}
