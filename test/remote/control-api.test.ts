import { describe, expect, it, onTestFinished } from 'vitest';
import { type Pet, PetStoreClient } from '../../src/index.js';
import {
  connectFakePetStore,
  createFakePetStore,
  type FakePetStoreOptions,
  FakeStoreControlError,
  type ListenOptions,
  samplePets,
} from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { DEFAULT_MAX_SESSIONS } from '../../src/testing/store/store-core.js';
import { authed, expectError, preflight } from '../testing/support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

async function serve(options: FakePetStoreOptions = {}, listen: ListenOptions = {}) {
  const store = createFakePetStore({ pets: samplePets(3), ...options });
  const server = await store.listen(listen);
  onTestFinished(() => server.close());
  return { store, server, remote: connectFakePetStore(server.url) };
}

const rex: Pet = { id: 1, name: 'Rex', categoryId: 1, status: 'available' };

describe('connectFakePetStore against store.listen()', () => {
  it('reads like the in-process store: pets, setPets, injectFault, requests, reset', async () => {
    const { store, server, remote } = await serve();
    expect(server.controlUrl).toBe(`http://127.0.0.1:${server.port}/__fake`);
    expect(remote.baseUrl).toBe(server.url);
    expect(remote.controlUrl).toBe(server.controlUrl);

    expect(await remote.pets).toEqual(store.pets);
    await remote.setPets([{ ...rex, id: 10 }]);
    expect(store.pets).toEqual([{ ...rex, id: 10 }]);
    // Each await reads afresh.
    expect(await remote.pets).toEqual([{ ...rex, id: 10 }]);

    await remote.injectFault({
      status: 503,
      times: Number.POSITIVE_INFINITY,
      match: { path: '/pets/{petId}', nth: 2 },
    });
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: remote.baseUrl,
      maxRetries: 0,
      deprecationWarnings: false,
    });
    expect(await client.request({ method: 'GET', path: '/pets/10' })).toEqual({ ...rex, id: 10 });
    await expect(client.request({ method: 'GET', path: '/pets/10' })).rejects.toMatchObject({ status: 503 });
    await expect(client.request({ method: 'GET', path: '/pets/10' })).rejects.toMatchObject({ status: 503 });
    await remote.clearFaults();
    expect(await client.createPet({ name: 'Luna', categoryId: 2 })).toMatchObject({ id: 11 });

    const requests = await remote.requests;
    expect(requests.map(({ method, path, status }) => `${method} ${path} ${status}`)).toEqual([
      'GET /pets/10 200',
      'GET /pets/10 503',
      'GET /pets/10 503',
      'POST /pets 201',
    ]);
    expect(requests).toEqual(store.requests);

    await remote.reset();
    expect(store.pets).toEqual(samplePets(3));
    expect(store.requests).toEqual([]);
  });

  it('injects faults that match on headers and on the JSON body, as in process', async () => {
    const { server, remote } = await serve();
    await remote.injectFault({ status: 503, match: { headers: { 'X-Tenant': 'blue' } } });
    await remote.injectFault({
      status: 400,
      match: { method: 'POST', body: { name: 'Rex', categoryId: 1 } },
    });
    const client = (tenant: string) =>
      new PetStoreClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: remote.baseUrl,
        maxRetries: 0,
        headers: { 'X-Tenant': tenant },
      });

    expect(await client('green').listPets()).toHaveLength(3);
    await expect(client('blue').listPets()).rejects.toMatchObject({ status: 503 });
    expect(await client('green').createPet({ name: 'Luna', categoryId: 1 })).toMatchObject({ id: 4 });
    await expect(
      client('green').createPet({ name: 'Rex', categoryId: 1, status: 'sold' }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect((await remote.requests).map(({ method, status }) => `${method} ${status}`)).toEqual([
      'GET 200',
      'GET 503',
      'POST 201',
      'POST 400',
    ]);
    expect(server.url).toBe(remote.baseUrl);
  });

  it('never records a control request in the request log', async () => {
    const { store, remote } = await serve();
    await remote.pets;
    await remote.requests;
    await remote.advanceClock(0);
    await remote.clearChaos();
    expect(store.requests).toEqual([]);
    expect(await remote.requests).toEqual([]);
  });

  it('moves the clock: windows pass, and Date, Retry-After and X-RateLimit-Reset follow', async () => {
    const { server, remote } = await serve({ now: () => T0, apiKeys: { k: { perMinute: 1, perDay: 50 } } });
    const get = () => fetch(`${server.url}/pets`, authed({}, 'k'));
    await get();
    const limited = await get();
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(await remote.advanceClock(45_000)).toEqual({ now: T0 + 45_000 });
    const later = await get();
    expect(later.headers.get('retry-after')).toBe('15');
    expect(later.headers.get('date')).toBe(new Date(T0 + 45_000).toUTCString());
    await remote.advanceClock(15_000);
    const passed = await get();
    expect(passed.status).toBe(200);
    expect(passed.headers.get('x-ratelimit-reset')).toBe(String(T0 / 1000 + 120));
    const answer = await fetch(`${server.controlUrl}/clock`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"advanceMs":0}',
    });
    expect(await answer.json()).toEqual({ now: T0 + 60_000 });
  });

  it('starts and ends chaos, reproducibly', async () => {
    const { server, remote } = await serve();
    const statuses = async () => {
      const seen = [];
      for (let i = 0; i < 20; i++) seen.push((await fetch(`${server.url}/pets`, authed())).status);
      return seen;
    };
    await remote.injectChaos({ seed: 99, rate: 0.5, faults: [500, 503], match: { method: 'GET' } });
    const first = await statuses();
    expect(first.filter((status) => status >= 500).length).toBeGreaterThan(3);
    const log = await remote.requests;
    expect(
      log.filter((request) => request.chaos !== undefined).map((request) => request.chaos?.status),
    ).toEqual(first.filter((status) => status >= 500));
    await remote.clearChaos();
    expect((await statuses()).every((status) => status === 200)).toBe(true);
    await remote.reset();
    await remote.injectChaos({ seed: 99, rate: 0.5, faults: [500, 503], match: { method: 'GET' } });
    expect(await statuses()).toEqual(first);
  });

  it('refuses what JSON cannot carry, before sending anything', async () => {
    const { remote } = await serve();
    await expect(
      remote.injectFault({ status: 503, match: { path: /x/ as unknown as string } }),
    ).rejects.toThrow(/match\.path must be a string over the control API/);
    await expect(
      remote.injectFault({ status: 503, match: { predicate: () => true } as unknown as { path: string } }),
    ).rejects.toThrow(/match\.predicate runs only in process/);
  });

  it('refuses the control API’s URL, naming the base URL to give instead', () => {
    expect(() => connectFakePetStore('http://127.0.0.1:4010/__fake')).toThrow(
      /is the fake's control API; connectFakePetStore takes the store's base URL, ending in \/v1 \(http:\/\/127\.0\.0\.1:4010\/v1 /,
    );
    expect(() => connectFakePetStore('http://127.0.0.1:4010/__fake/sessions/s1/')).toThrow(
      /\(http:\/\/127\.0\.0\.1:4010\/sessions\/s1\/v1 unless/,
    );
    expect(() => connectFakePetStore('http://127.0.0.1:4010/pets')).toThrow(/\/v1/);
  });

  it('rejects with FakeStoreControlError, saying what the server said', async () => {
    const { remote } = await serve();
    const error = await remote.advanceClock(-1).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FakeStoreControlError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_body', name: 'FakeStoreControlError' });
    expect((error as Error).message).toMatch(/advanceClock: give whole milliseconds/);
    await expect(remote.setPets([{ id: 1 } as Pet])).rejects.toMatchObject({
      status: 400,
      message: expect.stringMatching(
        /not a valid list of Pets: 0\.name is required; 0\.categoryId is required/,
      ),
    });
  });

  it('answers CORS preflights for its own methods from a trusted origin, naming that origin, never *', async () => {
    const { server } = await serve({}, { control: { trustedOrigins: ['http://app.example'] } });
    const answered = await preflight(`${server.controlUrl}/pets`, 'PUT', 'content-type, authorization');
    expect(answered.status).toBe(204);
    expect(answered.headers.get('access-control-allow-methods')).toBe('POST, GET, PUT, DELETE');
    expect(answered.headers.get('access-control-allow-origin')).toBe('http://app.example');
    expect(answered.headers.get('vary')).toBe('Origin');
    const answer = await fetch(`${server.controlUrl}/pets`, { headers: { Origin: 'http://app.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBe('http://app.example');

    const other = await preflight(`${server.controlUrl}/pets`, 'PUT', 'content-type', 'http://other.example');
    await expectError(other, 403, 'untrusted_origin');
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('sessions', () => {
  it('each is an isolated store at its own base URL: pets, log, faults, windows and clock', async () => {
    const { store, remote } = await serve({
      now: () => T0,
      apiKeys: { k: { perMinute: 2, perDay: 50 }, roomy: 'pro' },
    });
    const [a, b] = [await remote.createSession(), await remote.createSession()];
    expect(a.id).not.toBe(b.id);
    expect(a.baseUrl).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/sessions/${a.id}/v1$`));
    expect(a.controlUrl).toMatch(new RegExp(`/__fake/sessions/${a.id}$`));
    // A session connected to by its base URL finds its control URL.
    expect(connectFakePetStore(a.baseUrl).controlUrl).toBe(a.controlUrl);

    expect(await a.pets).toEqual(samplePets(3));
    await a.setPets([rex]);
    await b.injectFault({ status: 503 });
    await b.advanceClock(3_600_000);

    const get = (baseUrl: string, path = '/pets') => fetch(`${baseUrl}${path}`, authed({}, 'k'));
    expect(await (await get(a.baseUrl)).json()).toEqual([rex]);
    expect((await get(b.baseUrl)).status).toBe(503);
    const fromB = await get(b.baseUrl);
    expect(fromB.headers.get('x-ratelimit-reset')).toBe(String(T0 / 1000 + 3_600 + 60));
    expect(fromB.headers.get('date')).toBe(new Date(T0 + 3_600_000).toUTCString());
    await get(a.baseUrl);
    expect((await get(a.baseUrl)).status).toBe(429);
    expect((await get(b.baseUrl)).status).toBe(200);

    const created = await fetch(`${a.baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: 'Bearer roomy', 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Luna', categoryId: 2 }),
    });
    expect(created.headers.get('location')).toBe(`${a.baseUrl}/pets/2`);

    expect((await a.requests).map((request) => request.path)).toEqual(['/pets', '/pets', '/pets', '/pets']);
    expect((await b.requests).map((request) => request.status)).toEqual([503, 200, 200]);
    expect(store.requests).toEqual([]);
    expect(await remote.pets).toEqual(samplePets(3));
  });

  it('ends on DELETE: its URLs answer 404 from then on', async () => {
    const { remote } = await serve();
    const session = await remote.createSession();
    await session.end();
    await expectError(await fetch(`${session.baseUrl}/pets`, authed()), 404, 'not_found');
    await expect(session.pets).rejects.toMatchObject({
      status: 404,
      message: expect.stringContaining(`No session ${session.id}`),
    });
  });

  it('are bounded: past the most, 503 too_many_sessions until one ends', async () => {
    const { remote } = await serve({}, { control: { maxSessions: 2 } });
    const first = await remote.createSession();
    await remote.createSession();
    const refused = await remote.createSession().catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 503, code: 'too_many_sessions' });
    expect((refused as Error).message).toMatch(/at most 2 sessions/);
    await first.end();
    expect((await remote.createSession()).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(DEFAULT_MAX_SESSIONS).toBe(100);
  });

  it('end once idle for sessionIdleTimeout by the store’s clock, freeing their place', async () => {
    let now = T0;
    const { remote } = await serve(
      { now: () => now },
      { control: { maxSessions: 1, sessionIdleTimeout: 60_000 } },
    );
    const session = await remote.createSession();
    now += 59_000;
    expect(await session.pets).toHaveLength(3); // used: idle time starts again
    now += 59_000;
    expect((await fetch(`${session.baseUrl}/pets`, authed())).status).toBe(200);
    // advanceClock moves the session's API clock, not the time sessions expire by.
    await session.advanceClock(3_600_000);
    expect(await session.pets).toHaveLength(3);
    now += 60_000;
    await expect(session.pets).rejects.toMatchObject({ status: 404 });
    expect((await remote.createSession()).id).not.toBe(session.id);
  });
});
