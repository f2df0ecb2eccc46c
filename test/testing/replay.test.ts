import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { APIConnectionError, InternalServerError, NotFoundError, PetStoreClient } from '../../src/index.js';
import {
  createFakePetStore,
  type FakePetStore,
  type Har,
  ReplayMismatchError,
  samplePets,
} from '../../src/testing/index.js';
import { authed } from './support/transports.js';

const KEY = 'sk-replay-secret-0123456789';

function clientOf(store: FakePetStore): PetStoreClient {
  return new PetStoreClient({
    apiKey: KEY,
    baseUrl: store.baseUrl,
    fetch: store.fetch,
    maxRetries: 0,
    deprecationWarnings: false,
  });
}

/** What an app does: list, create, read the new pet, miss one, list again. */
async function scenario(client: PetStoreClient) {
  const before = await client.listPets({ limit: 2 });
  const created = await client.createPet({ name: 'Bella', categoryId: 2, status: 'pending' });
  const read = await client.getPet(created.id);
  const missing = await client.getPet(999).catch((error: unknown) => error);
  const after = await client.listPets();
  return { before, created, read, missing: missing instanceof NotFoundError ? missing.code : missing, after };
}

async function recorded(): Promise<{ har: Har; results: Awaited<ReturnType<typeof scenario>> }> {
  const store = createFakePetStore({ apiKeys: { [KEY]: 'pro' }, pets: samplePets(3) });
  const results = await scenario(clientOf(store));
  return { har: JSON.parse(JSON.stringify(store.toHAR())) as Har, results };
}

describe('replay in process', () => {
  it('answers the same requests with the recorded answers, so the app gets the same results', async () => {
    const { har, results } = await recorded();
    expect(JSON.stringify(har)).not.toContain(KEY);
    // A store that knows neither the key nor the pets: every answer comes from the recording.
    const store = createFakePetStore({ replay: har });
    expect(await scenario(clientOf(store))).toEqual(results);
    expect(store.pets).toEqual([]);
    expect(store.requests.map((request) => request.status)).toEqual([200, 201, 200, 404, 200]);
  });

  it('answers a request that was not recorded with 501 not_recorded, naming the nearest and what differs', async () => {
    const { har } = await recorded();
    const mismatches: ReplayMismatchError[] = [];
    const store = createFakePetStore({ replay: har, onReplayMismatch: (error) => mismatches.push(error) });
    const error = await clientOf(store)
      .createPet({ name: 'Max', categoryId: 2, status: 'pending' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ status: 501, code: 'not_recorded' });
    expect((error as Error).message).toMatch(
      /^Replay: no recorded request matches POST \/pets \{"categoryId":2,"name":"Max","status":"pending"\}\. The nearest recorded, entry 1: POST \/pets \{"categoryId":2,"name":"Bella","status":"pending"\}, differs in body/,
    );
    expect(mismatches).toHaveLength(1);
    expect(mismatches[0]).toBeInstanceOf(ReplayMismatchError);
    expect(mismatches[0]?.nearest).toBe(1);
    expect(mismatches[0]?.request).toBe('POST /pets {"categoryId":2,"name":"Max","status":"pending"}');
    expect(store.requests[0]?.error).toBe((error as Error).message);
  });

  it('matches the query strictly, parameters in any order', async () => {
    const { har } = await recorded();
    const store = createFakePetStore({ replay: har });
    const other = await store.fetch(`${store.baseUrl}/pets?limit=3`, authed({}, KEY));
    expect(other.status).toBe(501);
    expect((await other.json()).message).toMatch(
      /entry 0: GET \/pets\?limit=2, differs in query \(recorded "limit=2", got "limit=3"\)/,
    );
  });

  it('matches on whether the request carries Authorization', async () => {
    const { har } = await recorded();
    const store = createFakePetStore({ replay: har });
    const anonymous = await store.fetch(`${store.baseUrl}/pets?limit=2`);
    expect(anonymous.status).toBe(501);
    expect((await anonymous.json()).message).toMatch(
      /differs in authorization \(recorded "present", got "absent"\)/,
    );
  });

  it('matches a recording whose authorization was stripped, as Polly.js writes it, when told to', async () => {
    const polly = JSON.parse(
      readFileSync(new URL('./fixtures/polly-pets.har', import.meta.url), 'utf8'),
    ) as Har;
    const app = async (store: FakePetStore) => {
      const client = clientOf(store);
      return [
        await client.listPets({ status: 'available' }),
        await client.createPet({ name: 'Bella', categoryId: 2, status: 'pending' }),
      ];
    };

    await expect(app(createFakePetStore({ replay: polly }))).rejects.toThrow(
      /differs in authorization \(recorded "absent", got "present"\)/,
    );
    const store = createFakePetStore({ replay: polly, replayMatchesAuthorization: false });
    expect(await app(store)).toEqual([
      [
        { id: 1, name: 'Rex', categoryId: 1, status: 'available' },
        { id: 2, name: 'Mia', categoryId: 3, status: 'available' },
      ],
      { id: 3, name: 'Bella', categoryId: 2, status: 'pending' },
    ]);
    expect(store.requests.map((request) => request.status)).toEqual([200, 201]);
  });

  it('uses each recorded answer once, in order, until reset()', async () => {
    const { har } = await recorded();
    const store = createFakePetStore({ replay: har });
    const client = clientOf(store);
    await client.listPets({ limit: 2 });
    const again = await client.listPets({ limit: 2 }).catch((error: unknown) => error);
    expect(again).toMatchObject({ status: 501, code: 'not_recorded' });
    expect((again as Error).message).toMatch(
      /GET \/pets\?limit=2 was recorded 1 time\(s\), and each recorded answer was used already/,
    );
    store.reset();
    expect(await client.listPets({ limit: 2 })).toHaveLength(2);
  });

  it('replays an answer that was lost as a lost connection', async () => {
    const recorder = createFakePetStore({ apiKeys: { [KEY]: 'pro' } });
    recorder.injectFault({ afterOperation: 'lost-response' });
    await expect(clientOf(recorder).createPet({ name: 'Bella', categoryId: 2 })).rejects.toThrow(
      APIConnectionError,
    );
    const store = createFakePetStore({ replay: recorder.toHAR() });
    await expect(clientOf(store).createPet({ name: 'Bella', categoryId: 2 })).rejects.toThrow(
      APIConnectionError,
    );
  });

  it('refuses an archive that is not HAR', async () => {
    const { har } = await recorded();
    const [first] = har.log.entries;
    if (first === undefined) throw new Error('nothing recorded');
    const broken = {
      log: { ...har.log, entries: [{ ...first, request: { ...first.request, url: '/v1/pets' } }] },
    };
    expect(() => createFakePetStore({ replay: broken })).toThrow(
      /^replay: not a HAR archive: log\.entries\.0\.request\.url is not a URL$/,
    );
    expect(() => createFakePetStore({ replay: { log: {} } as unknown as Har })).toThrow(
      /^replay: not a HAR archive: log\.entries: /,
    );
  });
});
