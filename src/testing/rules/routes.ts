/**
 * The fake Animal Store's routes, built from the table of operations: each method
 * and path pattern with the handler that answers it. The 404 for a path with no route, the 405 and its
 * `Allow` header, and the methods the CORS preflights (src/testing/rules/cors.ts) allow all derive from
 * them; the control API declares its own table and finds its routes the same way.
 *
 * @module
 */

import { OPERATIONS, type OperationName, type OperationSpec } from '../../operations.js';
import type { PetRepository } from '../store/pet-repository.js';
import { HANDLERS, type Handler, type OperationRequest, withDeprecation } from './operations.js';
import { ERROR_CODES, errorReply, type JsonReply } from './responses.js';

/** One route: a method, a path pattern (`{name}` matches one segment), and what answers it. */
export interface Route<Handler> {
  readonly method: string;
  readonly pattern: string;
  readonly handler: Handler;
}

/** An operation's route: its handler, and its entry in the table. */
interface OperationRoute {
  readonly handler: Handler;
  readonly operation: OperationSpec;
}

/** Every route the fake serves: one per operation of the table, in its order. */
const ROUTES: readonly Route<OperationRoute>[] = (
  Object.entries(OPERATIONS) as [OperationName, OperationSpec][]
).map(([name, operation]) => ({
  method: operation.method,
  pattern: operation.path,
  handler: { handler: HANDLERS[name], operation },
}));

/** The routes the fake models, as `METHOD /path` in the table's order: what a `not_modelled` 404 names. */
export const MODELLED_ROUTES: readonly string[] = Object.freeze(
  ROUTES.map((candidate) => `${candidate.method} ${candidate.pattern}`),
);

/** Whether some route of the fake has this path (under the base URL), whatever its method. */
export function isModelled(path: string): boolean {
  return ROUTES.some((candidate) => matchPattern(candidate.pattern, path) !== undefined);
}

/**
 * The 404 for a path under the base URL that no route has: the fake does not model it, which is not
 * the service saying there is nothing there, so it has its own code (an unknown pet stays `not_found`).
 */
export function notModelled(method: string, path: string): JsonReply {
  return errorReply(
    404,
    ERROR_CODES.notModelled,
    `The fake Animal Store does not model ${method} ${withoutTrailingSlash(path) || '/'}; it models ${MODELLED_ROUTES.join(', ')}. Answer it yourself in front of the fake (an msw handler, or a fetch that wraps store.fetch)`,
  );
}

/** The methods of a table, in its order: what a CORS preflight may ask for. */
export function methodsOf(table: readonly Route<unknown>[]): readonly string[] {
  return Object.freeze([...new Set(table.map((route) => route.method))]);
}

/** The methods of every route, in the order of the table: what a CORS preflight may ask for. */
export const ROUTE_METHODS: readonly string[] = methodsOf(ROUTES);

/** The path parameters of `path` when it matches `pattern`, else `undefined`. A trailing slash is ignored. */
export function matchPattern(pattern: string, path: string): Record<string, string> | undefined {
  const expected = withoutTrailingSlash(pattern).split('/');
  const actual = withoutTrailingSlash(path).split('/');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of expected.entries()) {
    const segment = actual[index] ?? '';
    if (part.startsWith('{') && part.endsWith('}')) {
      params[part.slice(1, -1)] = segment;
    } else if (part !== segment) {
      return undefined;
    }
  }
  return params;
}

/** The path without one trailing slash (the root `/` stays). */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** The 404 for a request no route serves, inside or outside the base URL. */
export function noRoute(method: string, path: string): JsonReply {
  return errorReply(404, ERROR_CODES.notFound, `No resource at ${method} ${path || '/'}`);
}

/**
 * The route of `table` for a request and its path parameters; else the 404 when no route has the
 * path, or the 405 with `Allow` (the methods the table lists for the path) when none has the method.
 * Messages name `shownPath`, the path as the client sent it.
 */
export function findRoute<Handler>(
  table: readonly Route<Handler>[],
  method: string,
  path: string,
  shownPath: string = path,
): { readonly route: Route<Handler>; readonly params: Record<string, string> } | JsonReply {
  const allowed: string[] = [];
  for (const candidate of table) {
    const params = matchPattern(candidate.pattern, path);
    if (params === undefined) continue;
    if (candidate.method === method) return { route: candidate, params };
    allowed.push(candidate.method);
  }
  if (allowed.length === 0) return noRoute(method, withoutTrailingSlash(shownPath));
  const allow = allowed.join(', ');
  return errorReply(
    405,
    ERROR_CODES.methodNotAllowed,
    `${method} is not allowed on ${shownPath}; allowed: ${allow}`,
    { Allow: allow },
  );
}

/**
 * Finds the route for an API request and runs its handler, or answers 404 or 405. A success gets the
 * table's status; every reply of a deprecated operation gets its deprecation headers.
 */
export function route(pets: PetRepository, request: OperationRequest): JsonReply {
  if (!isModelled(request.path)) return notModelled(request.method, request.path);
  const found = findRoute(ROUTES, request.method, request.path);
  if (!('route' in found)) return found;
  const { handler, operation } = found.route.handler;
  const answer = handler(pets, request, found.params);
  const reply = 'status' in answer ? answer : { ...answer, status: operation.status };
  return operation.deprecated === undefined
    ? reply
    : withDeprecation(reply, operation.deprecated, request.baseHref);
}
