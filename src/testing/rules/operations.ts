/**
 * What the fake decides for each operation of the table of operations: one handler per operation.
 * Routing, the success status and the deprecation headers come from the table; authentication and
 * rate limiting happen before these run.
 *
 * @module
 */
import { OPERATIONS, type OperationName } from '../../operations.js';
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
  sunset: new Date(OPERATIONS.getPet.deprecated.sunset).toUTCString(),
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

/** A success: its status comes from the operation's entry in the table; no `body` for none (204). */
export interface Success {
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One operation's handler: answers a routed request with a success or an error reply. `params` holds
 * the route's path parameters, by name, as they appear in the path (still percent-encoded).
 */
export type Handler = (
  pets: PetRepository,
  request: OperationRequest,
  params: Readonly<Record<string, string>>,
) => Success | JsonReply;

/** `listPets`: the first page of animals, filtered by `status`. */
function listPets(pets: PetRepository, request: OperationRequest): Success | JsonReply {
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
  return { body: listed };
}

/** `createPet`: adds an animal. */
function createPet(pets: PetRepository, request: OperationRequest): Success | JsonReply {
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
  return { body: pet, headers: { Location: `${request.baseHref}/pets/${pet.id}` } };
}

/** `getPet`: one animal. */
function getPet(pets: PetRepository, _request: OperationRequest, params: Readonly<Record<string, string>>) {
  const rawId = params.petId ?? '';
  const id = parsePetId(rawId);
  if (id === 'invalid') {
    return invalidParameter(`The path parameter "petId" must be an int64 integer, got "${rawId}"`);
  }
  const pet = id === undefined ? undefined : pets.get(id);
  if (pet === undefined) return errorReply(404, ERROR_CODES.notFound, `No pet with id ${rawId}`);
  return { body: pet };
}

/** The handler of every operation in the table. */
export const HANDLERS: { readonly [Name in OperationName]: Handler } = { listPets, createPet, getPet };

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

/**
 * A reply of a deprecated operation with the headers that say so: the fake's `Deprecation` date, the
 * table's `Sunset`, and a `Link` to the table's successor.
 */
export function withDeprecation(
  reply: JsonReply,
  { sunset, successor }: { readonly sunset: string; readonly successor: string },
  baseHref: string,
): JsonReply {
  return {
    ...reply,
    headers: {
      ...reply.headers,
      Deprecation: GET_PET_DEPRECATION.deprecation,
      Sunset: new Date(sunset).toUTCString(),
      Link: `<${baseHref}${OPERATIONS[successor as OperationName].path}>; rel="successor-version"`,
    },
  };
}

function invalidParameter(message: string): JsonReply {
  return errorReply(400, ERROR_CODES.invalidParameter, message);
}
