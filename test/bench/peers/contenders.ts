/**
 * The clients an application could pick instead of the SDK, each written as its own documentation
 * shows, with the model in classic zod where a schema is used: created once, then called.
 *
 * @module
 */
import ky from 'ky';
import createClient from 'openapi-fetch';
import type * as Sdk from '../../../src/index.js';
import { BENCH_API_KEY } from '../constants.js';
import { ClassicPetListSchema, ClassicPetSchema } from '../plain-schemas.js';
import type { Contender } from '../timing.js';
import type { paths } from './paths.js';

/** An operation of the peer benchmark. */
export type PeerOperation = 'listPets' | 'getPet' | 'createPet';

export const PET_COUNT = 100;
const NEW_PET = { name: 'Rex', categoryId: 1, status: 'available' } as const;
const headers = { Authorization: `Bearer ${BENCH_API_KEY}` };

function petId(index: number): number {
  return (index % PET_COUNT) + 1;
}

/** The contenders in the order of the table's columns. */
export const PEERS = [
  'raw fetch',
  'fetch + zod',
  'ky',
  'ky + zod',
  'openapi-fetch',
  'openapi-fetch + zod',
  'SDK',
] as const;
export type Peer = (typeof PEERS)[number];

type Call = (index: number) => Promise<unknown>;
type Parse = (body: unknown) => unknown;

/** The `fetch` every contender is handed: `undefined` for each client's own default (the global one). */
export type PeerFetch = typeof globalThis.fetch | undefined;

function parseOf(operation: PeerOperation, zod: boolean): Parse {
  if (!zod) return (body) => body;
  const schema = operation === 'listPets' ? ClassicPetListSchema : ClassicPetSchema;
  return (body) => schema.parse(body);
}

function fetchCall(
  baseUrl: string,
  operation: PeerOperation,
  parse: Parse,
  fetch: PeerFetch = globalThis.fetch,
): Call {
  const answer = async (response: Response) => {
    if (!response.ok) throw new Error(`${response.url} answered ${response.status}`);
    return parse(await response.json());
  };
  const list = `${baseUrl}/pets?limit=${PET_COUNT}`;
  const create = `${baseUrl}/pets`;
  const createHeaders = { ...headers, 'Content-Type': 'application/json' };
  if (operation === 'listPets') return () => fetch(list, { headers }).then(answer);
  if (operation === 'getPet')
    return (index) => fetch(`${baseUrl}/pets/${petId(index)}`, { headers }).then(answer);
  return () =>
    fetch(create, { method: 'POST', headers: createHeaders, body: JSON.stringify(NEW_PET) }).then(answer);
}

function kyCall(baseUrl: string, operation: PeerOperation, parse: Parse, fetch: PeerFetch): Call {
  const api = ky.create({ prefix: baseUrl, headers, ...(fetch && { fetch }) });
  if (operation === 'listPets')
    return async () => parse(await api.get('pets', { searchParams: { limit: PET_COUNT } }).json());
  if (operation === 'getPet') return async (index) => parse(await api.get(`pets/${petId(index)}`).json());
  return async () => parse(await api.post('pets', { json: NEW_PET }).json());
}

function openapiFetchCall(baseUrl: string, operation: PeerOperation, parse: Parse, fetch: PeerFetch): Call {
  const client = createClient<paths>({ baseUrl, headers, ...(fetch && { fetch }) });
  const answer = ({ data, error, response }: { data?: unknown; error?: unknown; response: Response }) => {
    if (error !== undefined) throw new Error(`${response.url} answered ${response.status}`);
    return parse(data);
  };
  if (operation === 'listPets')
    return async () => answer(await client.GET('/pets', { params: { query: { limit: PET_COUNT } } }));
  if (operation === 'getPet')
    return async (index) =>
      answer(await client.GET('/pets/{petId}', { params: { path: { petId: petId(index) } } }));
  return async () => answer(await client.POST('/pets', { body: NEW_PET }));
}

function sdkCall(sdk: typeof Sdk, baseUrl: string, operation: PeerOperation, fetch: PeerFetch): Call {
  // Every default in force (pacing, retries, validation, channels, logging at `warn`); the logger
  // only keeps getPet's deprecation warning off the console.
  const client = new sdk.PetStoreClient({
    apiKey: BENCH_API_KEY,
    baseUrl,
    logger: { warn: () => {} },
    fetch,
  });
  if (operation === 'listPets') return () => client.listPets({ limit: PET_COUNT });
  if (operation === 'getPet') return (index) => client.getPet(petId(index));
  return () => client.createPet(NEW_PET);
}

/**
 * Every peer for one operation against `baseUrl` (ending in `/v1`), the SDK from `sdk`, then each of
 * `variants` (other builds of the SDK, by name), all sending through `fetch` (the global one when
 * not given).
 */
export function peerContenders(
  sdk: typeof Sdk,
  baseUrl: string,
  operation: PeerOperation,
  variants: readonly { readonly name: string; readonly sdk: typeof Sdk }[] = [],
  fetch?: PeerFetch,
): Contender[] {
  const calls: Record<Peer, Call> = {
    'raw fetch': fetchCall(baseUrl, operation, parseOf(operation, false), fetch),
    'fetch + zod': fetchCall(baseUrl, operation, parseOf(operation, true), fetch),
    ky: kyCall(baseUrl, operation, parseOf(operation, false), fetch),
    'ky + zod': kyCall(baseUrl, operation, parseOf(operation, true), fetch),
    'openapi-fetch': openapiFetchCall(baseUrl, operation, parseOf(operation, false), fetch),
    'openapi-fetch + zod': openapiFetchCall(baseUrl, operation, parseOf(operation, true), fetch),
    SDK: sdkCall(sdk, baseUrl, operation, fetch),
  };
  return [
    ...PEERS.map((name) => ({ name, call: calls[name] })),
    ...variants.map((variant) => ({
      name: variant.name,
      call: sdkCall(variant.sdk, baseUrl, operation, fetch),
    })),
  ];
}

/** Fails when a contender does not get the expected answer, so that no failing call is timed. */
export async function checkPeerAnswers(operation: PeerOperation, all: readonly Contender[]): Promise<void> {
  for (const contender of all) {
    const body = (await contender.call(0)) as { id?: unknown; name?: unknown } | unknown[];
    const ok =
      operation === 'listPets'
        ? Array.isArray(body) && body.length === PET_COUNT
        : operation === 'getPet'
          ? !Array.isArray(body) && body.id === petId(0)
          : !Array.isArray(body) && body.name === NEW_PET.name && typeof body.id === 'number';
    if (!ok) {
      throw new Error(`${contender.name} got an unexpected ${operation} answer: ${JSON.stringify(body)}`);
    }
  }
}
