/**
 * What the runtime scenario (fixtures/scenario.js) must report, on every runtime alike.
 *
 * @module
 */
import type { ExpectStatic } from 'vitest';

/** The warning the first getPet of a process gives. */
const GET_PET_WARNING =
  'animal-store-sdk: getPet is deprecated and will be removed on 2030-12-05; use listPets instead.';

const REX = { id: 8, name: 'Rex', categoryId: 1, status: 'available' };

/**
 * What the diagnostics channels tell of the scenario's calls (`operation attempts status error`) and
 * waits, where the runtime has channels.
 */
const HEARD = {
  calls: [
    'listPets 1 200 ok',
    'createPet 1 201 ok',
    'getPet 1 200 ok',
    'getPet 1 404 NotFoundError',
    'listPets 2 200 ok',
    // Aborted while the store delayed its answer: one attempt, no response.
    'listPets 1 - APIUserAbortError',
    'createPet 0 - RequestValidationError',
  ],
  waits: ['listPets retry-after 1000'],
};

/**
 * Asserts a report of fixtures/scenario.js. `channels` says whether the runtime has
 * `diagnostics_channel` (browsers do not: the SDK publishes nothing there, and loads nothing for it).
 */
export function expectScenarioReport(
  expect: ExpectStatic,
  report: Record<string, unknown>,
  channels: 'present' | 'absent' = 'present',
): void {
  expect(report.channels).toEqual(channels === 'present' ? HEARD : null);
  expect(report).toMatchObject({
    listed: ['Bella'],
    created: REX,
    fetched: REX,
    missing: {
      rejected: {
        name: 'NotFoundError',
        instanceOf: ['APIError', 'NotFoundError', 'PetStoreError'],
        status: 404,
        code: 'not_found',
      },
    },
    // The 429 answered the first try; the retry after its Retry-After: 1 got the list.
    throttle: { pets: ['Rex'], waitedForRetryAfter: true },
    // Five requests counted against the Free plan's 60 a minute: the 429 is the fault's, not counted.
    rateLimit: { limit: 60, remaining: 55 },
    abort: { rejected: { name: 'APIUserAbortError', instanceOf: ['APIUserAbortError', 'PetStoreError'] } },
    invalid: {
      rejected: {
        name: 'RequestValidationError',
        instanceOf: ['PetStoreError', 'RequestValidationError'],
        message: 'Invalid pet for createPet: name: Invalid input: expected string, received number',
      },
      sent: 0,
    },
    // getPet twice, one warning.
    warnings: [GET_PET_WARNING],
    requests: [
      'GET /pets',
      'POST /pets',
      'GET /pets/8',
      'GET /pets/404',
      'GET /pets',
      'GET /pets',
      'GET /pets',
    ],
  });
}
