/**
 * `animal-store-sdk/testing`: a fake Animal Store for tests, examples and local development.
 *
 * One function from a web `Request` to a web `Response` serves three ways: msw request handlers
 * (`store.handlers`), a drop-in `fetch` (`store.fetch`) and a real HTTP server on loopback
 * (`store.listen()` on Node, Bun and Deno; also the `animal-store-fake-server` command). Only
 * `store.handlers` needs `msw` (a peer dependency, 2 or 3), and loads it when first read. Each test
 * runner's setup, fake timers included, is in docs/testing.md.
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
 * The fake follows the interface wherever it says how, and makes a documented choice wherever it is
 * silent. Every rule (the order of checks, authentication, rate limits and bans, each operation's
 * validation, the error codes and where each is decided, the limits, CORS) is written in one place:
 * docs/fake-server.md, shipped in the package and in the repository.
 *
 * @module
 */

export type { Fetch } from '../shared/fetch.js';
export type { AdvanceOptions, AdvanceTimers, Settled } from './advance-time.js';
export { advanceUntilSettled } from './advance-time.js';
export type { ContractViolation } from './contract/check-contract.js';
export { checkContract } from './contract/check-contract.js';
export type { OpenApiDocument } from './contract/openapi.js';
export { animalStoreOpenApi } from './contract/openapi.js';
export type {
  ConnectOptions,
  RemoteChaosOptions,
  RemoteFakePetStore,
  RemoteFakePetStoreSession,
  RemoteFaultMatch,
  RemoteFaultOptions,
  RemoteRead,
} from './control/connect.js';
export { connectFakePetStore, FakeStoreControlError } from './control/connect.js';
export { createFakePetStore } from './create-fake-pet-store.js';
export type { AfterOperationFault } from './disruptions/after-operation.js';
export { AFTER_OPERATION_FAULTS, DEFAULT_DRIP_MS } from './disruptions/after-operation.js';
export type { ChaosDelay, ChaosFault, ChaosOptions } from './disruptions/chaos.js';
export { DEFAULT_CHAOS_FAULTS } from './disruptions/chaos.js';
export { MAX_DELAY_MS } from './disruptions/delay-range.js';
export type { FaultMatch, FaultOptions } from './disruptions/faults.js';
export type {
  FakeStoreUnhandledOptions,
  LetFakeStoreThroughOptions,
  UnhandledFrameArgs,
} from './msw/let-fake-store-through.js';
export { letFakeStoreThrough } from './msw/let-fake-store-through.js';
export type { PendingWaitInfo } from './pending-waits.js';
export { pendingWaits } from './pending-waits.js';
export type { Har, HarEntry, HarNameValue, HarOptions } from './recording/har.js';
export { ReplayMismatchError } from './recording/replay.js';
export { DEFAULT_PAGE_SIZE, GET_PET_DEPRECATION } from './rules/operations.js';
export type { BanPolicy, Plan, PlanName, RateLimits } from './rules/rate-limiter.js';
export { DEFAULT_BAN_POLICY, DEFAULT_WINDOW_MS, PLAN_LIMITS } from './rules/rate-limiter.js';
export { DEFAULT_MAX_BODY_BYTES } from './rules/request-body.js';
export type { FakeErrorCode, JsonValue } from './rules/responses.js';
export { ERROR_CODES } from './rules/responses.js';
export { samplePets } from './sample-pets.js';
export type { SnapshotSerializer } from './snapshot/serializer.js';
export { fakePetStoreSerializer, RUNTIME_HEADERS } from './snapshot/serializer.js';
export { DEFAULT_BASE_URL } from './store/base-url.js';
export type { FakePetStore, FakePetStoreOptions, FetchFunction } from './store/fake-store.js';
export { DEFAULT_API_KEY, DEFAULT_API_KEYS } from './store/fake-store.js';
export { DEFAULT_NEW_PET_STATUS } from './store/pet-repository.js';
export type { ChaosRecord, RecordedRequest, RecordedResponse } from './store/request-log.js';
export { MAX_RECORDED_RESPONSE_BYTES, UNAUTHENTICATED_BODY_BYTES } from './store/request-log.js';
export type {
  ControlOptions,
  FakeStoreControl,
  ListenOptions,
  RunningFakeServer,
} from './store/store-core.js';
export { DEFAULT_MAX_SESSIONS, DEFAULT_SESSION_IDLE_MS } from './store/store-core.js';
export type { TestingLibraryTimeConfig, TestingLibraryTimeOptions } from './testing-library-time.js';
export { fakeTimeForTestingLibrary } from './testing-library-time.js';
export type { FakePetStoreMatchers, MatcherOutcome } from './verify/matchers.js';
export { fakePetStoreMatchers } from './verify/matchers.js';
export type { NearMiss, RequestMatch } from './verify/near-misses.js';
export { nearMisses } from './verify/near-misses.js';
export { FakeStoreVerificationError } from './verify/verification.js';
