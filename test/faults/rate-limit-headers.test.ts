import { describe, expect, it } from 'vitest';
import { NotFoundError } from '../../src/index.js';
import { settle } from '../support/fake-clock.js';
import { faultSetup, useFaultHarness } from './support/harness.js';
import { expectKeyHidden } from './support/leaks.js';
import { dropRateLimitHeaders, editingResponseHeaders } from './support/response-headers.js';

useFaultHarness();

function setting(values: Record<string, string>) {
  return (headers: Headers) => {
    for (const [name, value] of Object.entries(values)) headers.set(name, value);
  };
}

const broken: [string, (headers: Headers) => void][] = [
  ['missing', dropRateLimitHeaders],
  ['partly missing', (headers) => headers.delete('x-ratelimit-reset')],
  ['empty', setting({ 'x-ratelimit-limit': '', 'x-ratelimit-remaining': '', 'x-ratelimit-reset': '' })],
  ['not numbers', setting({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': 'some' })],
  ['negative', setting({ 'x-ratelimit-remaining': '-1' })],
  ['fractional', setting({ 'x-ratelimit-limit': '300.5', 'x-ratelimit-remaining': '2.5' })],
  ['beyond 2^53', setting({ 'x-ratelimit-reset': '9'.repeat(30) })],
  ['an HTTP-date reset', setting({ 'x-ratelimit-reset': 'Sun, 22 Nov 2026 12:01:00 GMT' })],
  ['repeated', (headers) => headers.append('x-ratelimit-remaining', '7')],
];

/** A client whose responses have their rate-limit headers changed by whatever `edit` currently is. */
function setupEditing() {
  const state = { edit: (_: Headers) => {} };
  const context = faultSetup({
    through: (fetch) => editingResponseHeaders(fetch, (headers) => state.edit(headers)),
  });
  return { ...context, state };
}

describe.each(broken)('X-RateLimit headers %s', (_, edit) => {
  it('leave rateLimit null before any valid reading, and every call still succeeds', async () => {
    const { client, store, logger, state } = setupEditing();
    state.edit = edit;
    const { value, error } = await settle(client.listPets({ limit: 5 }).withResponse());
    expect(error).toBeUndefined();
    expect(value?.rateLimit).toBeNull();
    expect(client.rateLimit).toBeNull();

    const burst = await settle(Promise.all([client.listPets(), client.getPet(1), client.listPets()]));
    expect(burst.error).toBeUndefined();
    expect(store.requests).toHaveLength(4);
    expect(client.rateLimit).toBeNull();
    expectKeyHidden(error, logger);
  });

  it('keep the last valid reading', async () => {
    const { client, logger, state } = setupEditing();
    await settle(client.listPets());
    const valid = client.rateLimit;
    expect(valid).toMatchObject({ limit: 300, remaining: 299 });

    state.edit = edit;
    const { value, error } = await settle(client.createPet({ name: 'Bella', categoryId: 2 }).withResponse());
    expect(error).toBeUndefined();
    expect(value?.data.name).toBe('Bella');
    expect(value?.rateLimit).toBeNull();
    expect(client.rateLimit).toEqual(valid);

    const failed = await settle(client.getPet(999));
    expect(failed.error).toBeInstanceOf(NotFoundError);
    expect((failed.error as NotFoundError).rateLimit).toBeNull();
    expect(client.rateLimit).toEqual(valid);
    expectKeyHidden(failed.error, logger);
  });
});
