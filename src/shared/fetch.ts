/** @module */

/**
 * A `fetch`-compatible function: what the client's `fetch` option takes, and what the fake's
 * `store.fetch` is. The client gives it a `Request`, except for a retry of a request without a body,
 * which comes as its URL with the method, headers and signal in `init` (so that a `fetch` that
 * memoizes, as Next.js's does, sends it again).
 *
 * @example
 * ```ts
 * import { type Fetch, PetStoreClient } from 'animal-store-sdk';
 *
 * // Logs method, URL, status and duration; never the headers, which carry the API key.
 * const timedFetch: Fetch = async (input, init) => {
 *   const request = new Request(input, init);
 *   const started = performance.now();
 *   const response = await fetch(request);
 *   console.log(request.method, request.url, response.status, `${Math.round(performance.now() - started)} ms`);
 *   return response;
 * };
 * const client = new PetStoreClient({ apiKey: 'my-key', baseUrl: 'https://api.example.com/v1', fetch: timedFetch });
 * ```
 */
export type Fetch = (input: Request | URL | string, init?: RequestInit) => Promise<Response>;
