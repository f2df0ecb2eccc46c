/**
 * `animal-store-sdk/testing`: a fake Animal Store for tests, examples and local development.
 *
 * One function from a web `Request` to a web `Response` serves three ways: msw request handlers
 * (`store.handlers`), a drop-in `fetch` (`store.fetch`) and a real HTTP server on loopback
 * (`store.listen()` on Node, Bun and Deno; also the `animal-store-fake-server` command). The
 * ./testing entry needs `msw` (a peer dependency) installed.
 *
 * ```ts
 * import { setupServer } from 'msw/node';
 * import { createFakePetStore } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore();
 * const server = setupServer(...store.handlers);
 * server.listen({ onUnhandledFrame: 'error' });
 * ```
 *
 * The fake follows the interface wherever it says how. Where the interface is silent, it chooses:
 *
 * **Order of checks.** Each request under the base URL is recorded, then meets, in order: an injected
 * fault (faults model the infrastructure in front of the service, such as a load balancer's 503, so
 * they come first, need no key and use no quota), authentication (401), rate limiting and bans (429),
 * routing (404, 405), validation (400), and the operation. All requests need a key, unknown paths
 * included, and every authenticated request counts against the key's limits, whatever its answer.
 *
 * **Authentication.** `Authorization: Bearer <key>` (scheme in any case) with a key from `apiKeys`.
 * A missing header, another scheme or an unknown key is a 401 `unauthorized` with a
 * `WWW-Authenticate: Bearer realm="animal-store"` challenge.
 *
 * **Rate limits.** Per key, from its plan: Free 60 per minute and 1,000 per day, Pro 300/10,000,
 * Business 1,000/100,000; `'enterprise'` stands for 10,000/10,000,000, and `{ perMinute, perDay }`
 * sets any figures. `{ perMinute, perDay, windowMs }` also shortens (or lengthens) the minute window,
 * e.g. `{ perMinute: 10, perDay: 1_000, windowMs: 3_000 }` for tests across processes that must see
 * several windows pass in seconds; everything below holds for it as for a minute. Windows are fixed: a
 * minute (or day) window starts at the key's first request after the previous window ended. Requests
 * answered 429 do not count.
 * - `X-RateLimit-Limit`/`-Remaining`/`-Reset` describe the window with the fewest requests left (on a
 *   tie, the one that resets later); `-Reset` is in unix seconds, rounded up.
 * - A 401 cannot be attributed to a key: it carries the Free plan's minute window, untouched
 *   (`60`, `60`, now + 60 s), and counts against nothing.
 * - Injected fault responses carry the key's current headers without counting a request, unless the
 *   fault's own headers replace them.
 * - Over a limit: 429 `rate_limited`, `X-RateLimit-Remaining: 0`, and `Retry-After` in whole seconds
 *   (rounded up, at least 1) until the used-up window that resets last resets.
 * - Bans: a key that sends more than `ban.maxRequestsWhileLimited` (default 10) requests while
 *   limited is banned for `ban.durationMs` (default 10 minutes) from the request that caused it. While
 *   banned every request is a 429 `api_key_banned` with `Retry-After` until the ban ends,
 *   `X-RateLimit-Limit` the minute limit, `-Remaining: 0` and `-Reset` the ban's end. The ban is not
 *   extended by further requests, and the count of requests while limited starts again after every
 *   request that gets through. `ban: false` never bans.
 *
 * **listPets.** `limit` defaults to 20 and must be written as a decimal integer from 1 to 100; `status`
 * must be `available`, `pending` or `sold`. A bad value, or either parameter given twice, is a 400
 * `invalid_parameter` naming it. Unknown query parameters are ignored. Animals come ordered by id; the
 * answer is the first page (the first `limit` matches), since the interface shows no way to ask for
 * another.
 *
 * **createPet.** The body must be sent with `Content-Type: application/json` (parameters such as
 * `charset` allowed), else 400 `invalid_content_type`; an empty body is a 400 `invalid_body`, malformed
 * JSON a 400 `invalid_json`, and a body that `NewPetSchema` rejects (a missing or mistyped field, an
 * unknown status, an unknown field) a 400 `invalid_body` listing each problem. `name` may be any
 * string, as the interface sets no limits. An omitted `status` becomes `available`. The 201 carries
 * the Pet and `Location: <base URL>/pets/<id>`. Ids continue from the highest initial id and are never
 * reused; creates are applied one at a time, so concurrent creates neither lose nor duplicate a pet.
 *
 * **getPet.** A `petId` that is not an int64 integer is a 400 `invalid_parameter`; an int64 with no
 * animal is a 404 `not_found`. Its responses (200, 400, 404) carry `Deprecation: @1767225600` (RFC
 * 9745: deprecated since 1 January 2026), `Sunset: Thu, 05 Dec 2030 00:00:00 GMT` (RFC 8594) and
 * `Link: <base URL/pets>; rel="successor-version"` (the replacement, `GET /pets` with `status`).
 *
 * **Other requests under the base URL.** A path with no route, including `GET /store/orders` and the
 * rest of the store area whose shape the interface does not show, is a 404 `not_found`; a test that
 * needs an answer there adds its own msw handler (`server.use(http.get(...))`, which comes before the
 * store's) or wraps `store.fetch`. A method a
 * route lacks is a 405 `method_not_allowed` with `Allow: GET, POST` (`/pets`) or `Allow: GET`
 * (`/pets/{petId}`); HEAD and OPTIONS are such methods. A trailing slash is ignored.
 *
 * **Errors.** Every error is `Content-Type: application/json` with `{ code, message, status }`,
 * `status` repeating the HTTP status; the codes are {@link ERROR_CODES}.
 *
 * **Limits.** A request body over `maxBodyBytes` (default {@link DEFAULT_MAX_BODY_BYTES}, 1 MiB),
 * known from its `Content-Length` or counted as it arrives, is answered 413 `payload_too_large` before
 * anything else, without reading the rest (over HTTP the connection then closes); nothing is stored
 * and the request is recorded without its body. A `POST /pets` body that is not UTF-8, or JSON nested
 * deeper than 64 levels, is a 400 `invalid_json`. `store.requests` keeps every request unless
 * `maxRecordedRequests` bounds it (the oldest dropped first, counted in `store.droppedRequests`); the
 * `animal-store-fake-server` command keeps 10,000. The HTTP server answers headers over 16 KiB with 431
 * `headers_too_large`, a request target over 8 KiB with 414 `uri_too_long`, bytes that are not HTTP
 * with 400 `bad_request`, and a request still incomplete after `requestTimeoutMs` (default 30 s) with
 * 408 `request_timeout`, closing the connection each time.
 *
 * **Faults.** See {@link FaultOptions}: applied in the order injected, the first match wins, `times`
 * defaults to 1; without a `body`, the response is an Error whose code names the status
 * (`service_unavailable`, `rate_limited`, ...).
 *
 * **Transports.** `store.handlers` handle only the base URL and below; msw applies its
 * unhandled-request policy elsewhere. `store.fetch` rejects a URL outside the base URL with a
 * `TypeError` "fetch failed". The HTTP server serves the base URL's path on any host name; outside it
 * answers 404 `not_found` without checking the key or recording the request. It answers CORS preflights
 * (any origin; `GET`, `POST`; `Authorization`, `Content-Type`; not recorded) and exposes the
 * rate-limit headers, `Retry-After`, `Deprecation`, `Sunset`, `Link`, `Location` and
 * `WWW-Authenticate` to browsers. Every HTTP response carries a `Date` header read from the store's
 * clock (exposed to browsers too), so `X-RateLimit-Reset` and `Retry-After` can be read relative to it.
 *
 * @module
 */
export { DEFAULT_BASE_URL } from './base-url.js';
export { createFakePetStore } from './create-fake-pet-store.js';
export type { FakePetStore, FakePetStoreOptions, FetchFunction } from './fake-store.js';
export { DEFAULT_API_KEY, DEFAULT_API_KEYS } from './fake-store.js';
export type { FaultMatch, FaultOptions } from './faults.js';
export { DEFAULT_PAGE_SIZE, GET_PET_DEPRECATION } from './operations.js';
export { DEFAULT_NEW_PET_STATUS } from './pet-repository.js';
export type { BanPolicy, Plan, PlanName, RateLimits } from './rate-limiter.js';
export { DEFAULT_BAN_POLICY, DEFAULT_WINDOW_MS, PLAN_LIMITS } from './rate-limiter.js';
export { DEFAULT_MAX_BODY_BYTES } from './request-body.js';
export type { RecordedRequest } from './request-log.js';
export type { FakeErrorCode, JsonValue } from './responses.js';
export { ERROR_CODES } from './responses.js';
export { samplePets } from './sample-pets.js';
export type { ListenOptions, RunningFakeServer } from './store-core.js';
