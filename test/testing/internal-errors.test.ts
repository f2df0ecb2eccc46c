import { describe, expect, it, vi } from 'vitest';
import { createFakePetStore, type RecordedRequest } from '../../src/testing/index.js';
import type { JsonValue } from '../../src/testing/rules/responses.js';
import { authed, expectError, transports } from './support/transports.js';

/** A fault body JSON cannot write: the fake fails while answering with it. */
function circularBody(): JsonValue {
  const body: Record<string, unknown> = { code: 'loop' };
  body.self = body;
  return body as JsonValue;
}

describe.each(transports)('a failure inside the fake, over $name', (transport) => {
  it('is answered 500 internal_error with the Error shape, recorded, and reported', async () => {
    const onInternalError = vi.fn<(error: unknown, request: RecordedRequest) => void>();
    const store = createFakePetStore({ onInternalError });
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, body: circularBody() });

    const response = await fetch(`${baseUrl}/pets`, authed());
    const body = await expectError(response, 500, 'internal_error');

    expect(body.message).toMatch(/^The fake Animal Store failed while answering: .*circular/i);
    const [recorded] = store.requests;
    expect(recorded).toMatchObject({ method: 'GET', path: '/pets', status: 500 });
    expect(recorded?.error).toMatch(/circular/i);
    expect(onInternalError).toHaveBeenCalledTimes(1);
    expect(onInternalError.mock.calls[0]?.[0]).toBeInstanceOf(TypeError);
    // Reported as the failure happened: before the 500 it is answered with is recorded.
    const { response: answer, ...reported } = recorded ?? ({} as RecordedRequest);
    expect(answer?.status).toBe(500);
    expect(onInternalError.mock.calls[0]?.[1]).toEqual(reported);
  });

  it('leaves the store answering the next request', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ status: 503, body: circularBody() });

    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(500);
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(200);
  });
});
