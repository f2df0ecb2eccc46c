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

export type { AdvanceOptions, Settled } from './advance-time.js';
export { advanceUntilSettled } from './advance-time.js';
export { type FakeErrorCode, fakePetStoreConstants } from './constants.js';
export type { ContractViolation } from './contract/check-contract.js';
export { checkContract } from './contract/check-contract.js';
export type { OpenApiDocument } from './contract/openapi.js';
export { petStoreOpenApi } from './contract/openapi.js';
export type { ConnectOptions, RemoteFakePetStore, RemoteFakePetStoreSession } from './control/connect.js';
export { connectFakePetStore, FakeStoreControlError } from './control/connect.js';
export { createFakePetStore } from './create-fake-pet-store.js';
export type { AfterOperationFault } from './disruptions/after-operation.js';
export type { ChaosOptions } from './disruptions/chaos.js';
export type { FaultOptions } from './disruptions/faults.js';
export { letFakeStoreThrough } from './msw/let-fake-store-through.js';
export type { PendingWaitInfo } from './pending-waits.js';
export { pendingWaits } from './pending-waits.js';
export type { Har, HarOptions } from './recording/har.js';
export { ReplayMismatchError } from './recording/replay.js';
export type { PlanName } from './rules/rate-limiter.js';
export { samplePets } from './sample-pets.js';
export { fakePetStoreSerializer } from './snapshot/serializer.js';
export type { FakePetStore, FakePetStoreOptions } from './store/fake-store.js';
export type { RecordedRequest } from './store/request-log.js';
export type { ListenOptions, RunningFakeServer } from './store/store-core.js';
export { fakeTimeForTestingLibrary } from './testing-library-time.js';
export type { FakePetStoreMatchers } from './verify/matchers.js';
export { fakePetStoreMatchers } from './verify/matchers.js';
export type { NearMiss, RequestMatch } from './verify/near-misses.js';
export { nearMisses } from './verify/near-misses.js';
export { FakeStoreVerificationError } from './verify/verification.js';
