/**
 * The peer benchmark's service answered inside the calling process: a `fetch` that builds the
 * `Request` as fetch does, waits one turn of the event loop (an answer from a socket never arrives
 * in the same turn), and returns what the loopback server would send (answers.ts). Every contender
 * is handed it, so that the in-process run shows each client's own work with no socket and no
 * undici connection beneath it.
 *
 * @module
 */
import { peerAnswer, peerHeaders } from './answers.js';

/** The base URL the in-process run calls: nothing listens there, since nothing is sent. */
export const IN_PROCESS_BASE_URL = 'http://peers.bench.invalid/v1';

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `fetch`, answered by the peer benchmark's service in this process. */
export async function inProcessFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const url = new URL(request.url);
  const body = request.method === 'POST' ? await request.text() : '';
  await nextTurn();
  const answer = peerAnswer({
    method: request.method,
    url: url.pathname + url.search,
    authorization: request.headers.get('authorization') ?? undefined,
    body,
  });
  return new Response(answer.body, { status: answer.status, headers: peerHeaders(answer.body) });
}
