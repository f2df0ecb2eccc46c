/**
 * What the peer benchmark's service answers, wherever it runs: a page of 100 pets, one pet by id, a
 * created pet, and the Error shape for anything else, each with the headers the service sends (the
 * rate-limit reading, a request id). The loopback server (server.ts) and the in-process `fetch`
 * (in-process-fetch.ts) both answer from here, so the two runs of the benchmark differ only in the
 * socket.
 *
 * @module
 */
import { samplePets } from '../../../src/testing/sample-pets.js';
import { BENCH_API_KEY } from '../constants.js';

/** One request, as the service sees it. */
export interface PeerRequest {
  readonly method: string;
  /** The path and query string: `/v1/pets?limit=100`. */
  readonly url: string;
  readonly authorization: string | undefined;
  /** The body read as text (a POST's). */
  readonly body: string;
}

/** One answer: its status and its JSON body. */
export interface PeerAnswer {
  readonly status: number;
  readonly body: string;
}

const pets = samplePets(100);
// Serialized once, so that what is measured is the client's work alone.
const bodies = new Map<string, string>([
  ['/v1/pets?limit=100', JSON.stringify(pets)],
  ...pets.map((pet): [string, string] => [`/v1/pets/${pet.id}`, JSON.stringify(pet)]),
]);
const AUTHORIZATION = `Bearer ${BENCH_API_KEY}`;
let created = 1000;

const error = (status: number, code: string): PeerAnswer => ({
  status,
  body: JSON.stringify({ code, message: code, status }),
});

/** The answer to one request. */
export function peerAnswer({ method, url, authorization, body }: PeerRequest): PeerAnswer {
  if (authorization !== AUTHORIZATION) return error(401, 'unauthorized');
  if (method === 'GET') {
    const page = bodies.get(url);
    return page === undefined ? error(404, 'not_found') : { status: 200, body: page };
  }
  if (method === 'POST' && url === '/v1/pets') {
    const pet = JSON.parse(body) as Record<string, unknown>;
    return { status: 201, body: JSON.stringify({ id: ++created, ...pet }) };
  }
  return error(404, 'not_found');
}

/** The headers every answer carries: a window no run reaches, resetting a minute from now. */
export function peerHeaders(body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'x-ratelimit-limit': '10000000',
    'x-ratelimit-remaining': '9999999',
    'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 60),
    'x-request-id': 'req_bench',
  };
}
