/**
 * The seam between the fake store and the adapters that serve it (msw, fetch, HTTP): what the store
 * makes of a request, and where and how the HTTP server listens.
 *
 * @module
 */
import type { BaseUrl } from './base-url.js';

/**
 * Where {@link FakePetStore.listen} starts the HTTP server.
 *
 * @example
 * ```ts
 * import type { ListenOptions } from 'animal-store-sdk/testing';
 *
 * const options: ListenOptions = { port: 4010, hostname: '127.0.0.1' };
 * // A service that hides Retry-After and X-RateLimit-* from pages.
 * const strict: ListenOptions = { corsHeaders: ['Authorization', 'Content-Type'] };
 * ```
 */
export interface ListenOptions {
  /** The TCP port; 0 (the default) picks a free one. */
  readonly port?: number;
  /** The address to listen on. Default `127.0.0.1` (loopback only). */
  readonly hostname?: string;
  /**
   * Milliseconds a client has to send a whole request, headers and body; a request still
   * incomplete then is answered 408 `request_timeout` and its connection closed. Checked about
   * once a second. Default 30,000.
   */
  readonly requestTimeoutMs?: number;
  /**
   * Makes the server act like a strict service: CORS preflights allow, and answers expose to pages,
   * only the headers this list names (e.g. `['Authorization', 'Content-Type']`, to see how a page
   * behaves when the service hides `Retry-After` and `X-RateLimit-*`). By default preflights allow
   * whatever headers a page asks to send, and answers expose every header the SDK reads.
   */
  readonly corsHeaders?: readonly string[];
}

/**
 * A running fake HTTP server.
 *
 * @example
 * ```ts
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const server = await createFakePetStore().listen();
 * console.log(server.url); // e.g. http://127.0.0.1:53412/v1
 * await server.close();
 * ```
 */
export interface RunningFakeServer {
  /** The base URL of the server (scheme, address, port and the store's base path, ending in `/v1`). */
  readonly url: string;
  /** The port it listens on. */
  readonly port: number;
  /**
   * Stops the server: closes idle keep-alive connections, cuts requests still waiting on an injected
   * delay, and resolves once every connection is closed.
   */
  close(): Promise<void>;
}

/**
 * What the store makes of one request: a response, or a failed connection.
 */
export type Outcome =
  | { readonly kind: 'response'; readonly response: Response }
  | { readonly kind: 'network-error' };

/**
 * The store's request handling, for the adapters (msw, fetch, HTTP).
 */
export interface StoreCore {
  /** The configured base URL. */
  readonly base: BaseUrl;
  /** The store's clock, in milliseconds since the epoch. */
  readonly now: () => number;
  /** The largest request body read, in bytes. */
  readonly maxBodyBytes: number;
  /**
   * Answers a request. `baseHref` is the base URL the request was sent to (the configured one, or the
   * HTTP server's); links in responses point under it. `oversized` says the caller already found the
   * body over the limit and did not read it.
   */
  respond(request: Request, baseHref: string, oversized?: boolean): Promise<Outcome>;
}
