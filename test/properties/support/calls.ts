import { expect, vi } from 'vitest';
import { type Fetch, PetStoreClient, RequestValidationError } from '../../../src/index.js';
import { createFakePetStore, type FakePetStore } from '../../../src/testing/index.js';
import { API_KEY, BASE_URL } from '../../client/setup.js';
import type { Verdict } from './oracle.js';
import { type ExpectedRequest, expectWellFormed, recordingFetch } from './wire.js';

// Taken before any test fakes the timers: it bounds, in real time, how long a call may stay pending.
const realSetTimeout = globalThis.setTimeout;

/** The animals every store starts with. */
export const SEED_PETS = [
  { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
  { id: 2, name: 'Bella', categoryId: 2, status: 'pending' },
  { id: 3, name: 'Max', categoryId: 1, status: 'sold' },
] as const;

/** A store with a limit no property run comes near. */
export function propertyStore(): FakePetStore {
  return createFakePetStore({ baseUrl: BASE_URL, apiKeys: { [API_KEY]: 'enterprise' }, pets: SEED_PETS });
}

export type Outcome =
  | { readonly kind: 'resolved'; readonly value: unknown }
  | { readonly kind: 'rejected'; readonly error: unknown }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'pending' };

/** One call against a fresh state of `store`: how it ended and what reached the wire. */
export interface CallRecord {
  readonly outcome: Outcome;
  readonly sent: readonly Request[];
  readonly received: number;
}

/**
 * Makes one call with a new client on a reset store. The fake clock is never moved, so no
 * timeout, backoff or rate-limit wait can end; a call still pending after a second of real time
 * is reported as such.
 */
export async function callOnce(
  store: FakePetStore,
  call: (client: PetStoreClient) => PromiseLike<unknown>,
  through: (fetch: Fetch) => Fetch = (fetch) => fetch,
): Promise<CallRecord> {
  store.reset();
  const { fetch, sent } = recordingFetch(store.fetch);
  const logger = { warn: vi.fn<(message: string) => void>() };
  const client = new PetStoreClient({ apiKey: API_KEY, baseUrl: BASE_URL, fetch: through(fetch), logger });
  let pending: PromiseLike<unknown>;
  try {
    pending = call(client);
  } catch (error) {
    return { outcome: { kind: 'threw', error }, sent, received: store.requests.length };
  }
  const outcome = await Promise.race<Outcome>([
    Promise.resolve(pending).then(
      (value) => ({ kind: 'resolved', value }),
      (error: unknown) => ({ kind: 'rejected', error }),
    ),
    new Promise((resolve) => realSetTimeout(() => resolve({ kind: 'pending' }), 1_000)),
  ]);
  return { outcome, sent, received: store.requests.length };
}

/**
 * Asserts the contract of every call: a RequestValidationError (a TypeError for an unknown option's
 * name) with nothing sent, or exactly one well-formed request; which of the two is the verdict's to
 * say. Returns whether it was sent.
 */
export async function expectHonoured(
  record: CallRecord,
  verdict: Verdict,
  expected: () => ExpectedRequest,
): Promise<boolean> {
  const { outcome, sent, received } = record;
  expect(outcome.kind, 'threw instead of returning a promise').not.toBe('threw');
  expect(outcome.kind, 'still pending with nothing to wait for').not.toBe('pending');
  const error = outcome.kind === 'rejected' ? outcome.error : undefined;
  const refused =
    error instanceof RequestValidationError ||
    (error instanceof TypeError && error.message.startsWith('Unknown request option '));
  if (outcome.kind === 'rejected' && !refused && sent.length === 0) {
    expect.fail(`rejected with ${String(error)} without sending a request`);
  }
  if (refused) {
    expect(verdict, 'rejected arguments that are valid').not.toBe('send');
    if (error instanceof RequestValidationError) expect(error.issues.length).toBeGreaterThan(0);
    expect(sent).toHaveLength(0);
    expect(received).toBe(0);
    return false;
  }
  expect(verdict, 'sent a request for arguments that are invalid').not.toBe('reject');
  expect(sent).toHaveLength(1);
  expect(received).toBe(1);
  await expectWellFormed(sent[0] as Request, expected());
  return true;
}
