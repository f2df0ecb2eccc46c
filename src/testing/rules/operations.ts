/**
 * The fake Animal Store's three operations (`listPets`, `createPet`, `getPet`), with the validation of
 * what they receive. Routing (routes.ts), authentication and rate limiting happen before these run.
 *
 * @module
 */
import { ListPetsParamsSchema, NewPetSchema, PetIdSchema } from '../../schemas.js';
import type { PetRepository } from '../store/pet-repository.js';
import { isJsonContentType, parseJsonBody } from './json-body.js';
import { ERROR_CODES, errorReply, type JsonReply } from './responses.js';

/**
 * The page size of `listPets` when `limit` is not given.
 */
export const DEFAULT_PAGE_SIZE = 20;

/**
 * The deprecation of `GET /pets/{petId}`, as the headers of its responses carry it: `Deprecation`
 * (RFC 9745, a structured date: deprecated since 1 January 2026) and `Sunset` (RFC 8594, an HTTP-date:
 * the removal on 5 December 2030). A `Link` with `rel="successor-version"` points to `GET /pets`, the
 * replacement.
 */
export const GET_PET_DEPRECATION = Object.freeze({
  /** The `Deprecation` header: `@` and the unix seconds of 2026-01-01T00:00:00Z. */
  deprecation: '@1767225600',
  /** The `Sunset` header: the removal date. */
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
});

/** What an operation needs to know about a request that passed authentication and rate limiting. */
export interface OperationRequest {
  /** The method, upper case. */
  readonly method: string;
  /** The path relative to the base URL. */
  readonly path: string;
  /** The full URL. */
  readonly url: URL;
  /** The base URL the request was sent to, for the links the response carries. */
  readonly baseHref: string;
  /** The request headers. */
  readonly headers: Headers;
  /** The body, read as text (`''` when there is none). */
  readonly bodyText: string;
  /** Whether the body was valid UTF-8; `bodyText` has U+FFFD where it was not. Default `true`. */
  readonly bodyUtf8?: boolean;
}

/**
 * One operation: answers a routed request. `params` holds the route's path parameters, by name, as
 * they appear in the path (still percent-encoded).
 */
export type Operation = (
  pets: PetRepository,
  request: OperationRequest,
  params: Readonly<Record<string, string>>,
) => JsonReply;

/** `GET /pets`: the first page of animals, filtered by `status`. */
export function listPets(pets: PetRepository, request: OperationRequest): JsonReply {
  const query = request.url.searchParams;
  const raw: { limit?: number; status?: string } = {};
  for (const name of ['limit', 'status'] as const) {
    const values = query.getAll(name);
    if (values.length > 1) {
      return invalidParameter(`The query parameter "${name}" must be given at most once`);
    }
    const [value] = values;
    if (value === undefined) continue;
    if (name === 'status') {
      raw.status = value;
    } else if (/^[+-]?\d+$/.test(value)) {
      raw.limit = Number(value);
    } else {
      return invalidParameter(`The query parameter "limit" must be an integer from 1 to 100, got "${value}"`);
    }
  }
  const parsed = ListPetsParamsSchema.safeParse(raw);
  if (!parsed.success) {
    const [issue] = parsed.error.issues;
    const name = String(issue?.path[0] ?? 'query');
    return invalidParameter(`The query parameter "${name}" is invalid: ${issue?.message ?? 'invalid value'}`);
  }
  const listed = pets.list({ limit: parsed.data.limit ?? DEFAULT_PAGE_SIZE, status: parsed.data.status });
  return { status: 200, body: listed };
}

/** `POST /pets`: adds an animal. */
export function createPet(pets: PetRepository, request: OperationRequest): JsonReply {
  const contentType = request.headers.get('content-type');
  if (!isJsonContentType(contentType)) {
    return errorReply(
      400,
      ERROR_CODES.invalidContentType,
      `The request body must be JSON sent with Content-Type: application/json, got ${contentType === null ? 'no Content-Type' : `"${contentType}"`}`,
    );
  }
  const parsed = parseJsonBody(request.bodyText, request.bodyUtf8 !== false, NewPetSchema, 'NewPet');
  if (!parsed.ok) return parsed.reply;
  const pet = pets.create(parsed.value);
  if (pet === undefined) {
    return errorReply(
      507,
      ERROR_CODES.idsExhausted,
      `No id is left for a new pet: ids would pass ${Number.MAX_SAFE_INTEGER} (Number.MAX_SAFE_INTEGER), the largest a JSON number holds exactly; reset the store or set pets with lower ids`,
    );
  }
  return { status: 201, body: pet, headers: { Location: `${request.baseHref}/pets/${pet.id}` } };
}

/** `GET /pets/{petId}`: one animal, with the headers of the operation's deprecation. */
export function getPet(
  pets: PetRepository,
  request: OperationRequest,
  params: Readonly<Record<string, string>>,
): JsonReply {
  return withDeprecation(findPet(pets, params.petId ?? ''), request.baseHref);
}

function findPet(pets: PetRepository, rawId: string): JsonReply {
  const id = parsePetId(rawId);
  if (id === 'invalid') {
    return invalidParameter(`The path parameter "petId" must be an int64 integer, got "${rawId}"`);
  }
  const pet = id === undefined ? undefined : pets.get(id);
  if (pet === undefined) return errorReply(404, ERROR_CODES.notFound, `No pet with id ${rawId}`);
  return { status: 200, body: pet };
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * The pet id in a path segment: a number, `undefined` for an int64 that no pet can have (beyond what a
 * JavaScript number holds exactly), or `'invalid'` for anything that is not an int64.
 */
function parsePetId(segment: string): number | undefined | 'invalid' {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    return 'invalid';
  }
  if (!/^-?\d+$/.test(decoded)) return 'invalid';
  const big = BigInt(decoded);
  if (big < INT64_MIN || big > INT64_MAX) return 'invalid';
  const parsed = PetIdSchema.safeParse(Number(big));
  return parsed.success && BigInt(parsed.data) === big ? parsed.data : undefined;
}

function withDeprecation(reply: JsonReply, baseHref: string): JsonReply {
  return {
    ...reply,
    headers: {
      ...reply.headers,
      Deprecation: GET_PET_DEPRECATION.deprecation,
      Sunset: GET_PET_DEPRECATION.sunset,
      Link: `<${baseHref}/pets>; rel="successor-version"`,
    },
  };
}

function invalidParameter(message: string): JsonReply {
  return errorReply(400, ERROR_CODES.invalidParameter, message);
}
