import { describe, expect, it } from 'vitest';
import { MAX_DELAY_MS } from '../../src/testing/disruptions/delay-range.js';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed, postJson, transports } from './support/transports.js';

// Real time, bounded: every wait here is cut short by an abort of a few hundred milliseconds, and
// nothing depends on how soon a busy machine answers.
const ABORT_MS = 300;
/** How long a test waits for a store on a busy machine to have handled a request. */
const HANDLED_WITHIN_MS = 5_000;
const NEW_PET = { name: 'Bella', categoryId: 2 };

/** Waits until `check` holds (the store has handled the request), failing after {@link HANDLED_WITHIN_MS}. */
async function eventually(check: () => boolean): Promise<void> {
  const deadline = performance.now() + HANDLED_WITHIN_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`not handled within ${HANDLED_WITHIN_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Resolves with `undefined` if the read gives nothing within `ms`. */
function readWithin(reader: ReadableStreamDefaultReader<Uint8Array>, ms: number) {
  return Promise.race([
    reader.read(),
    new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), ms)),
  ]);
}

/** Reads the body as far as it goes: the bytes that arrived, and how the read ended. */
async function readAll(response: Response): Promise<{ text: string; error?: unknown }> {
  const reader = response.body?.getReader();
  const chunks: Uint8Array[] = [];
  try {
    for (;;) {
      const chunk = await reader?.read();
      if (chunk === undefined || chunk.done) break;
      chunks.push(chunk.value);
    }
    return { text: Buffer.concat(chunks).toString('utf8') };
  } catch (error) {
    return { text: Buffer.concat(chunks).toString('utf8'), error };
  }
}

describe.each(transports)('faults after the operation, over $name', (transport) => {
  it('lost-response: the pet is created and no response arrives', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'lost-response' });
    await expect(fetch(`${baseUrl}/pets`, postJson(NEW_PET))).rejects.toThrow(TypeError);
    expect(store.pets).toHaveLength(1);
    const [request] = store.requests;
    expect(request?.status).toBeUndefined();
    expect(request?.afterOperation).toBe('lost-response');
    expect(request?.response?.status).toBe(201);
    expect(JSON.parse(request?.response?.body ?? '')).toMatchObject(NEW_PET);
  });

  it('stalled-response: the pet is created and the call waits until the client gives up', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'stalled-response' });
    const started = performance.now();
    const call = fetch(`${baseUrl}/pets`, { ...postJson(NEW_PET), signal: AbortSignal.timeout(ABORT_MS) });
    await expect(call).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(ABORT_MS - 20);
    await eventually(() => store.pets.length === 1);
    expect(store.requests[0]?.status).toBeUndefined();
  });

  it('cut-body: the status, the headers and half the body arrive, then the read fails', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'cut-body' });
    const response = await fetch(`${baseUrl}/pets`, postJson(NEW_PET));
    expect(response.status).toBe(201);
    const full = store.requests[0]?.response?.body ?? '';
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(full));
    const { text, error } = await readAll(response);
    expect(error).toBeInstanceOf(TypeError);
    expect(text).toBe(full.slice(0, Math.floor(full.length / 2)));
    expect(store.pets).toHaveLength(1);
    expect(store.requests[0]?.status).toBe(201);
  });

  it('dripping-body: the body arrives a byte at a time, slower than the client waits', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'dripping-body', dripInterval: 100 });
    const client = new AbortController();
    const response = await fetch(`${baseUrl}/pets`, { ...postJson(NEW_PET), signal: client.signal });
    expect(response.status).toBe(201);
    setTimeout(() => client.abort(new Error('the client gave up')), ABORT_MS);
    const { text, error } = await readAll(response);
    expect(error).toBeDefined();
    const full = store.requests[0]?.response?.body ?? '';
    // A byte at once and one every 100 ms: a few bytes, never the whole body, before the client gives up.
    expect(text.length).toBeGreaterThanOrEqual(1);
    expect(text.length).toBeLessThan(full.length);
    expect(full.startsWith(text)).toBe(true);
    expect(store.pets).toHaveLength(1);
  });

  it('dripping-body: a patient client gets the whole body', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'dripping-body', dripInterval: 1, match: { method: 'GET' } });
    const response = await fetch(`${baseUrl}/pets`, postJson(NEW_PET));
    await response.text();
    const listing = await fetch(`${baseUrl}/pets`, { headers: { Authorization: 'Bearer test-api-key' } });
    expect(await readAll(listing)).toEqual({ text: store.requests[1]?.response?.body });
    expect(JSON.parse(store.requests[1]?.response?.body ?? '')).toHaveLength(1);
  });

  it('stalled-body: the status and the headers arrive, then nothing until the client gives up', async () => {
    const store = createFakePetStore();
    const { baseUrl, fetch } = await transport.serve(store);
    store.injectFault({ afterOperation: 'stalled-body' });
    const client = new AbortController();
    const response = await fetch(`${baseUrl}/pets`, { ...postJson(NEW_PET), signal: client.signal });
    expect(response.status).toBe(201);
    const reader = response.body?.getReader();
    if (reader === undefined) throw new Error('no body');
    let read = await readWithin(reader, ABORT_MS);
    // An empty chunk may come first (it is what makes msw send the headers): no byte of the body.
    if (read?.value?.length === 0) read = await readWithin(reader, ABORT_MS);
    expect(read).toBeUndefined();
    client.abort(new Error('the client gave up'));
    await expect(reader.read()).rejects.toThrow();
    expect(store.pets).toHaveLength(1);
  });
});

describe.each(transports)('a client that gives up, over $name', (transport) => {
  it.each(['stalled-response', 'stalled-body', 'dripping-body'] as const)(
    'ends a %s at once: no timer is left waiting',
    async (fault) => {
      const store = createFakePetStore();
      const { baseUrl, fetch } = await transport.serve(store);
      const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length;
      const before = timers();
      store.injectFault({
        afterOperation: fault,
        ...(fault === 'dripping-body' ? { dripInterval: 60_000 } : {}),
      });
      const client = new AbortController();
      const call = fetch(`${baseUrl}/pets`, { ...authed(), signal: client.signal }).then((response) =>
        response.text(),
      );
      await eventually(() => store.requests.length === 1);
      client.abort(new Error('the client gave up'));
      await expect(call).rejects.toThrow();
      await eventually(() => timers() <= before);
    },
  );
});

describe('afterOperation is checked', () => {
  it.each([
    [{ afterOperation: 'lost' }, /afterOperation must be one of/],
    [{ afterOperation: 'cut-body', status: 503 }, /no status, networkError, headers or body/],
    [{ afterOperation: 'lost-response', networkError: true }, /no status, networkError/],
    [
      { afterOperation: 'cut-body', dripInterval: 10 },
      /dripInterval goes with afterOperation: 'dripping-body'/,
    ],
    [{ afterOperation: 'dripping-body', dripInterval: 0 }, /dripInterval must be whole milliseconds from 1/],
    [
      { afterOperation: 'dripping-body', dripInterval: MAX_DELAY_MS + 1 },
      /dripInterval must be whole milliseconds/,
    ],
  ])('refuses %o', (fault, message) => {
    expect(() => createFakePetStore().injectFault(fault as never)).toThrow(message);
  });
});

describe('chaos after the operation', () => {
  it('gives a seeded share of the requests a fault after the operation, and logs which', async () => {
    const store = createFakePetStore();
    store.injectChaos({ seed: 7, rate: 1, faults: ['lost-response'] });
    await expect(store.fetch(`${store.baseUrl}/pets`, postJson(NEW_PET))).rejects.toThrow(TypeError);
    expect(store.pets).toHaveLength(1);
    expect(store.requests[0]?.chaos).toEqual({ seed: 7, index: 1, afterOperation: 'lost-response' });
    expect(store.requests[0]?.afterOperation).toBe('lost-response');
  });
});

describe('faults after the operation through the control API', () => {
  it('takes afterOperation and dripInterval in JSON, and refuses an unknown one with 400', async () => {
    const store = createFakePetStore();
    const server = await store.listen();
    try {
      const inject = (fault: unknown) =>
        fetch(`${server.controlUrl}/faults`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify(fault),
        });
      expect((await inject({ afterOperation: 'cut-body', match: { method: 'POST' } })).status).toBe(204);
      const response = await fetch(`${server.url}/pets`, postJson(NEW_PET));
      expect(response.status).toBe(201);
      await expect(response.text()).rejects.toThrow(TypeError);
      expect(store.pets).toHaveLength(1);

      const refused = await inject({ afterOperation: 'lost' });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ code: 'invalid_body' });
      const badDrip = await inject({ afterOperation: 'dripping-body', dripInterval: 0 });
      expect(badDrip.status).toBe(400);
      expect((await badDrip.json()).message).toMatch(/dripInterval must be whole milliseconds from 1/);
      const chaos = await fetch(`${server.controlUrl}/chaos`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ seed: 1, rate: 1, faults: ['stalled-body'] }),
      });
      expect(chaos.status).toBe(204);
    } finally {
      await server.close();
    }
  });
});
