import { format } from '@vitest/pretty-format';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { createFakePetStore, fakePetStoreSerializer } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { fetchTransport, httpTransport, mswTransport } from './support/transports.js';

expect.addSnapshotSerializer(fakePetStoreSerializer);

const print = (value: unknown) => format(value, { plugins: [fakePetStoreSerializer] });

async function someCalls(baseUrl: string, fetch: typeof globalThis.fetch): Promise<void> {
  const client = new PetStoreClient({ apiKey: DEFAULT_API_KEY, baseUrl, fetch, logger: { warn: () => {} } });
  await client.listPets({ status: 'available', limit: 5 });
  await client.createPet({ name: 'Rex', categoryId: 1 }, { headers: { 'X-Trace': 'checkout' } });
  await client.getPet(404).catch(() => {});
}

describe('the snapshot serializer', () => {
  it('prints a request log the same over msw, store.fetch and HTTP, whatever the ids and the clock', async () => {
    const printed: string[] = [];
    // msw last: once listening, it stands in front of the loopback server too.
    for (const transport of [httpTransport, fetchTransport, mswTransport]) {
      // No requestIdSeed: every store draws other ids.
      const store = createFakePetStore();
      const { baseUrl, fetch } = await transport.serve(store);
      await someCalls(baseUrl, fetch);
      printed.push(print(store.requests));
    }

    expect(printed[1]).toBe(printed[0]);
    expect(printed[2]).toBe(printed[0]);
    expect(printed[0]).not.toMatch(/user-agent|sec-fetch|accept-encoding|connection|host|test-api-key/);
  });

  it('prints times relative to the first request, ids in order of appearance, the key redacted', async () => {
    const store = createFakePetStore();
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    await someCalls(store.baseUrl, store.fetch);

    expect(store.requests).toMatchInlineSnapshot(`
      [
        {
          "at": "+0ms",
          "headers": {
            "accept": "application/json",
            "authorization": "Bearer [redacted]",
          },
          "method": "GET",
          "path": "/pets",
          "query": {
            "limit": "5",
            "status": "available",
          },
          "requestId": "request-1",
          "response": {
            "answeredAt": "+0ms",
            "body": "[]",
            "headers": {
              "content-type": "application/json",
              "x-ratelimit-limit": "60",
              "x-ratelimit-remaining": "59",
              "x-request-id": "request-1",
            },
            "status": 200,
          },
          "status": 200,
        },
        {
          "at": "+0ms",
          "body": {
            "categoryId": 1,
            "name": "Rex",
          },
          "headers": {
            "accept": "application/json",
            "authorization": "Bearer [redacted]",
            "content-type": "application/json",
            "x-trace": "checkout",
          },
          "method": "POST",
          "path": "/pets",
          "requestId": "request-2",
          "response": {
            "answeredAt": "+0ms",
            "body": "{"id":1,"name":"Rex","categoryId":1,"status":"available"}",
            "headers": {
              "content-type": "application/json",
              "location": "/v1/pets/1",
              "x-ratelimit-limit": "60",
              "x-ratelimit-remaining": "58",
              "x-request-id": "request-2",
            },
            "status": 201,
          },
          "status": 201,
        },
        {
          "at": "+0ms",
          "headers": {
            "accept": "application/json",
            "authorization": "Bearer [redacted]",
          },
          "method": "GET",
          "path": "/pets/404",
          "requestId": "request-3",
          "response": {
            "answeredAt": "+0ms",
            "body": "{"code":"not_found","message":"No pet with id 404","status":404}",
            "headers": {
              "content-type": "application/json",
              "deprecation": "@1767225600",
              "link": "</v1/pets>; rel="successor-version"",
              "sunset": "Thu, 05 Dec 2030 00:00:00 GMT",
              "x-ratelimit-limit": "60",
              "x-ratelimit-remaining": "57",
              "x-request-id": "request-3",
            },
            "status": 404,
          },
          "status": 404,
        },
      ]
    `);
  });

  it('prints the same on a real clock, however long the flow took', async () => {
    // The store's clock stands for the real one: one flow, run on a machine 20 ms faster or slower,
    // so that its second request comes just before or just after a second has passed.
    const run = async (gapMs: number) => {
      let now = 1_700_000_000_000;
      const store = createFakePetStore({ now: () => now });
      const client = new PetStoreClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: store.baseUrl,
        fetch: store.fetch,
      });
      await client.listPets();
      now += gapMs;
      await client.listPets();
      return print(store.requests);
    };

    const slower = await run(1_010);
    expect(slower).toBe(await run(990));
    expect(slower).not.toMatch(/"at"|"answeredAt"/);
  });

  it('prints a store as its pets and its requests, times exact on a fake clock', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const store = createFakePetStore({ pets: [{ id: 1, name: 'Bella', categoryId: 2 }] });
      const client = new PetStoreClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl: store.baseUrl,
        fetch: store.fetch,
      });
      await client.listPets();
      vi.advanceTimersByTime(1_500);
      await client.listPets();

      expect(print(store)).toContain('"at": "+1500ms"');
      expect(store).toMatchInlineSnapshot(`
        {
          "pets": [
            {
              "categoryId": 2,
              "id": 1,
              "name": "Bella",
            },
          ],
          "requests": [
            {
              "at": "+0ms",
              "headers": {
                "accept": "application/json",
                "authorization": "Bearer [redacted]",
              },
              "method": "GET",
              "path": "/pets",
              "requestId": "request-1",
              "response": {
                "answeredAt": "+0ms",
                "body": "[{"id":1,"name":"Bella","categoryId":2}]",
                "headers": {
                  "content-type": "application/json",
                  "x-ratelimit-limit": "60",
                  "x-ratelimit-remaining": "59",
                  "x-request-id": "request-1",
                },
                "status": 200,
              },
              "status": 200,
            },
            {
              "at": "+1500ms",
              "headers": {
                "accept": "application/json",
                "authorization": "Bearer [redacted]",
              },
              "method": "GET",
              "path": "/pets",
              "requestId": "request-2",
              "response": {
                "answeredAt": "+1500ms",
                "body": "[{"id":1,"name":"Bella","categoryId":2}]",
                "headers": {
                  "content-type": "application/json",
                  "x-ratelimit-limit": "60",
                  "x-ratelimit-remaining": "58",
                  "x-request-id": "request-2",
                },
                "status": 200,
              },
              "status": 200,
            },
          ],
        }
      `);
    } finally {
      vi.useRealTimers();
    }
  });
});
