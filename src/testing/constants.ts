/**
 * The fake's figures in one object, each read from the module that uses it.
 *
 * @module
 */
import { AFTER_OPERATION_FAULTS, DEFAULT_DRIP_MS } from './disruptions/after-operation.js';
import { DEFAULT_CHAOS_FAULTS } from './disruptions/chaos.js';
import { MAX_DELAY_MS } from './disruptions/delay-range.js';
import { DEFAULT_PAGE_SIZE, GET_PET_DEPRECATION } from './rules/operations.js';
import { DEFAULT_BAN_POLICY, DEFAULT_WINDOW_MS, PLAN_LIMITS } from './rules/rate-limiter.js';
import { DEFAULT_MAX_BODY_BYTES } from './rules/request-body.js';
import { ERROR_CODES } from './rules/responses.js';
import { RUNTIME_HEADERS } from './snapshot/serializer.js';
import { DEFAULT_BASE_URL } from './store/base-url.js';
import { DEFAULT_API_KEY, DEFAULT_API_KEYS } from './store/fake-store.js';
import { DEFAULT_NEW_PET_STATUS } from './store/pet-repository.js';
import { MAX_RECORDED_RESPONSE_BYTES, UNAUTHENTICATED_BODY_BYTES } from './store/request-log.js';
import { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './store/store-core.js';

/**
 * The fake store's defaults, limits and fixed values: what a test compares with or builds its options
 * from. Every rule behind them is in docs/fake-server.md.
 *
 * @example
 * ```ts
 * import { PetStoreClient } from 'animal-store-sdk';
 * import { createFakePetStore, fakePetStoreConstants } from 'animal-store-sdk/testing';
 *
 * const store = createFakePetStore({ apiKeys: { ...fakePetStoreConstants.defaultApiKeys, 'pro-key': 'pro' } });
 * const client = new PetStoreClient({
 *   apiKey: fakePetStoreConstants.defaultApiKey,
 *   baseUrl: store.baseUrl,
 *   fetch: store.fetch,
 * });
 * fakePetStoreConstants.planLimits.free.perMinute; // 60
 * fakePetStoreConstants.errorCodes.rateLimited; // 'rate_limited'
 * ```
 */
export const fakePetStoreConstants = Object.freeze({
  /** The key every fake store accepts unless `apiKeys` says otherwise (`'test-api-key'`, Free plan). */
  defaultApiKey: DEFAULT_API_KEY,
  /** The `apiKeys` of a fake store when none are given: `defaultApiKey` on the Free plan. */
  defaultApiKeys: DEFAULT_API_KEYS,
  /** The base URL a fake store serves when none is given: `'http://animal-store.test/v1'`, a host that cannot exist. */
  defaultBaseUrl: DEFAULT_BASE_URL,
  /** The status of a pet created without one (`'available'`). */
  defaultNewPetStatus: DEFAULT_NEW_PET_STATUS,
  /** The page size of `listPets` when `limit` is not given (20). */
  defaultPageSize: DEFAULT_PAGE_SIZE,
  /** The length of the short ("minute") rate-limit window when a plan does not set `window` (60,000 ms). */
  defaultWindowMs: DEFAULT_WINDOW_MS,
  /** The requests per minute and per day of each named plan (`free`, `pro`, `business`, `enterprise`). */
  planLimits: PLAN_LIMITS,
  /** The default ban: more than 10 requests while limited bans the key for 10 minutes. */
  defaultBanPolicy: DEFAULT_BAN_POLICY,
  /** The largest request body the fake reads by default, in bytes (1 MiB); a larger one is answered 413. */
  defaultMaxBodyBytes: DEFAULT_MAX_BODY_BYTES,
  /** The most sessions a fake HTTP server keeps at once by default (100). */
  defaultMaxSessions: DEFAULT_MAX_SESSIONS,
  /** How long a session may go without a request before it ends by default, in milliseconds (15 minutes). */
  defaultSessionIdleMs: DEFAULT_SESSION_IDLE_MS,
  /** The time between two bytes of a `'dripping-body'` by default, in milliseconds (1 s). */
  defaultDripMs: DEFAULT_DRIP_MS,
  /** The faults chaos picks from when none are given: 500, 502, 503, 504, a 429 and a dropped connection. */
  defaultChaosFaults: DEFAULT_CHAOS_FAULTS,
  /** Every fault that strikes after the operation ran (`'lost-response'`, `'cut-body'`, ...). */
  afterOperationFaults: AFTER_OPERATION_FAULTS,
  /** The longest delay a request (`Prefer: delay`), a fault or chaos may ask for, in milliseconds (5 minutes). */
  maxDelayMs: MAX_DELAY_MS,
  /** How much of each response body the request log keeps (64 KiB). */
  maxRecordedResponseBytes: MAX_RECORDED_RESPONSE_BYTES,
  /** How much of the body of a request that failed authentication the log keeps (1 KiB). */
  unauthenticatedBodyBytes: UNAUTHENTICATED_BODY_BYTES,
  /** The `code` of every Error body the fake sends, by the name of the situation. */
  errorCodes: ERROR_CODES,
  /** The `Deprecation` and `Sunset` headers of `GET /pets/{petId}`'s responses. */
  getPetDeprecation: GET_PET_DEPRECATION,
  /** The headers snapshots leave out: a runtime or the HTTP stack adds them by itself. */
  runtimeHeaders: RUNTIME_HEADERS,
});

/**
 * The `code` of an Error body the fake sends: one of `fakePetStoreConstants.errorCodes`.
 *
 * @example
 * ```ts
 * import type { FakeErrorCode } from 'animal-store-sdk/testing';
 *
 * const code: FakeErrorCode = 'not_found';
 * ```
 *
 * @useDeclaredType
 */
export type FakeErrorCode =
  (typeof fakePetStoreConstants.errorCodes)[keyof typeof fakePetStoreConstants.errorCodes];
