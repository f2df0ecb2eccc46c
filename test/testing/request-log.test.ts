import { describe, expect, it } from 'vitest';
import { createFakePetStore } from '../../src/testing/index.js';
import { authed, postJson, transports, until } from './support/transports.js';

const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);

describe.each(transports)('store state over $name', (transport) => {
  it('records every request: method, url, path, headers, parsed body and time', async () => {
    const store = createFakePetStore({ now: () => T0 });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets?limit=5&status=sold`, authed({ headers: { 'X-Trace': 'abc' } }));
    await fetch(`${baseUrl}/pets`, postJson({ name: 'Rex', categoryId: 1 }));
    await fetch(
      `${baseUrl}/pets`,
      authed({ method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'name=Rex' }),
    );
    await fetch(`${baseUrl}/pets/1`);

    const requests = store.requests;
    expect(
      requests.map(({ method, url, path, body, receivedAt }) => ({ method, url, path, body, receivedAt })),
    ).toEqual([
      {
        method: 'GET',
        url: `${baseUrl}/pets?limit=5&status=sold`,
        path: '/pets',
        body: undefined,
        receivedAt: T0,
      },
      {
        method: 'POST',
        url: `${baseUrl}/pets`,
        path: '/pets',
        body: { name: 'Rex', categoryId: 1 },
        receivedAt: T0,
      },
      { method: 'POST', url: `${baseUrl}/pets`, path: '/pets', body: 'name=Rex', receivedAt: T0 },
      { method: 'GET', url: `${baseUrl}/pets/1`, path: '/pets/1', body: undefined, receivedAt: T0 },
    ]);
    expect(requests[0]?.headers).toMatchObject({ authorization: 'Bearer test-api-key', 'x-trace': 'abc' });
    expect(requests[1]?.headers['content-type']).toBe('application/json');
    expect(requests[3]?.headers.authorization).toBeUndefined();
  });

  it('records the status of each answer, and none while it is delayed or when no answer was sent', async () => {
    const store = createFakePetStore({ apiKeys: { 'test-api-key': { perMinute: 2, perDay: 10 } } });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, authed());
    await fetch(`${baseUrl}/pets/7`, authed());
    await fetch(`${baseUrl}/pets`, authed());
    await fetch(`${baseUrl}/pets`);
    store.injectFault({ networkError: true });
    await fetch(`${baseUrl}/pets`, authed()).catch(() => undefined);
    store.injectFault({ status: 503 });
    await fetch(`${baseUrl}/pets`, authed());
    expect(store.requests.map((request) => request.status)).toEqual([200, 404, 429, 401, undefined, 503]);

    store.injectFault({ delay: 300 });
    const delayed = fetch(`${baseUrl}/pets`, authed());
    await until(() => store.requests.length === 7);
    expect(store.requests[6]?.status).toBeUndefined();
    await delayed;
    expect(store.requests[6]?.status).toBe(429);
  });

  it('hands out copies of the pets and the requests', async () => {
    const store = createFakePetStore({ pets: [{ id: 1, name: 'Rex', categoryId: 1 }] });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, postJson({ name: 'Tom', categoryId: 1 }));

    const pets = store.pets;
    (pets[0] as { name: string }).name = 'Changed';
    pets.pop();
    expect(store.pets.map((pet) => pet.name)).toEqual(['Rex', 'Tom']);

    const requests = store.requests;
    (requests[0]?.body as { name: string }).name = 'Changed';
    expect(store.requests[0]?.body).toEqual({ name: 'Tom', categoryId: 1 });
  });

  it('returns to the initial state on reset', async () => {
    const clock = { now: T0 };
    const store = createFakePetStore({
      pets: [{ id: 1, name: 'Rex', categoryId: 1 }],
      apiKeys: { 'test-api-key': { perMinute: 2, perDay: 10 } },
      now: () => clock.now,
    });
    const { baseUrl, fetch } = await transport.serve(store);
    await fetch(`${baseUrl}/pets`, postJson({ name: 'Tom', categoryId: 1 }));
    await fetch(`${baseUrl}/pets`, authed());
    expect((await fetch(`${baseUrl}/pets`, authed())).status).toBe(429);
    store.injectFault({ status: 500, times: Number.POSITIVE_INFINITY });

    store.reset();

    expect(store.pets).toEqual([{ id: 1, name: 'Rex', categoryId: 1 }]);
    expect(store.requests).toEqual([]);
    const created = await fetch(`${baseUrl}/pets`, postJson({ name: 'Kit', categoryId: 1 }));
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ id: 2, name: 'Kit' });
  });
});
