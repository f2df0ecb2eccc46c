/**
 * The fake Animal Store's routes, declared once: each method and path pattern with the operation that
 * answers it. The 404 for a path with no route, the 405 and its `Allow` header, and the methods the
 * CORS preflights (src/testing/cors.ts) allow all derive from this table.
 *
 * @module
 */

import { createPet, getPet, listPets, type Operation, type OperationRequest } from './operations.js';
import type { PetRepository } from './pet-repository.js';
import { ERROR_CODES, errorReply, type JsonReply } from './responses.js';

/** One route: a method, a path pattern under the base URL (`{name}` matches one segment), an operation. */
interface Route {
  readonly method: string;
  readonly pattern: string;
  readonly operation: Operation;
}

/** Every route the fake serves. A new operation is one more line here. */
const ROUTES: readonly Route[] = [
  { method: 'GET', pattern: '/pets', operation: listPets },
  { method: 'POST', pattern: '/pets', operation: createPet },
  { method: 'GET', pattern: '/pets/{petId}', operation: getPet },
];

/** The methods of every route, in the order of the table: what a CORS preflight may ask for. */
export const ROUTE_METHODS: readonly string[] = Object.freeze([
  ...new Set(ROUTES.map((route) => route.method)),
]);

/** The path parameters of `path` when it matches `pattern`, else `undefined`. */
function match(pattern: string, path: string): Record<string, string> | undefined {
  const expected = pattern.split('/');
  const actual = path.split('/');
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

/** The 404 for a request no route serves, inside or outside the base URL. */
export function noRoute(method: string, path: string): JsonReply {
  return errorReply(404, ERROR_CODES.notFound, `No resource at ${method} ${path || '/'}`);
}

/**
 * Finds the route for a request and runs its operation: a 404 when no route has the path, a 405 with
 * `Allow` (the methods the table lists for the path) when none has the method. A trailing slash is
 * ignored.
 */
export function route(pets: PetRepository, request: OperationRequest): JsonReply {
  const path =
    request.path.length > 1 && request.path.endsWith('/') ? request.path.slice(0, -1) : request.path;
  const allowed: string[] = [];
  for (const candidate of ROUTES) {
    const params = match(candidate.pattern, path);
    if (params === undefined) continue;
    if (candidate.method === request.method) return candidate.operation(pets, request, params);
    allowed.push(candidate.method);
  }
  if (allowed.length === 0) return noRoute(request.method, path);
  const allow = allowed.join(', ');
  return errorReply(
    405,
    ERROR_CODES.methodNotAllowed,
    `${request.method} is not allowed on ${request.path}; allowed: ${allow}`,
    { Allow: allow },
  );
}
