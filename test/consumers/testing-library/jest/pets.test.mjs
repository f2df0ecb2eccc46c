// Jest 30 in ESM mode with jest-fixed-jsdom: React Testing Library's findByText on Jest's fake clock,
// while msw's setupServer answers the component's calls.
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, jest } from '@jest/globals';
import { cleanup, configure, render, screen } from '@testing-library/react';
import { PetStoreClient } from 'animal-store-sdk';
import {
  createFakePetStore,
  fakePetStoreConstants,
  fakeTimeForTestingLibrary,
  samplePets,
} from 'animal-store-sdk/testing';
import { setupServer } from 'msw/node';
import { createElement } from 'react';
import { environment, PetList, realNow } from '../pet-list.mjs';

const store = createFakePetStore({ pets: samplePets(3) });
const server = setupServer(...store.handlers);
beforeAll(async () => {
  server.listen({ onUnhandledFrame: 'error' });
  // One render first, with real timers: the wall time measured below is then the wait's, not that
  // of the first render and the first call.
  render(
    createElement(PetList, {
      client: new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: store.baseUrl }),
    }),
  );
  await screen.findByText('Rex');
  cleanup();
  store.reset();
});
afterAll(() => server.close());

configure(fakeTimeForTestingLibrary((ms) => jest.advanceTimersByTimeAsync(ms)));
beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
  store.reset();
});

it('findByText waits out a 429 with Retry-After: 2 in fake time', async () => {
  store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
  const client = new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: store.baseUrl });
  const fakeStart = Date.now();
  const wallStart = realNow();

  render(createElement(PetList, { client }));
  expect(await screen.findByText('Rex')).toBeTruthy();

  const wall = realNow() - wallStart;
  const fake = Date.now() - fakeStart;
  console.log(`findByText ${environment()} (Jest): ${Math.round(wall)} ms real, ${fake} ms fake`);
  expect(store.requests.map((request) => request.status)).toEqual([429, 200]);
  expect(fake).toBeGreaterThanOrEqual(2_000);
  expect(wall).toBeLessThan(1_500);
});

it('findByText still fails for text that never shows, in fake time', async () => {
  const client = new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: store.baseUrl });
  render(createElement(PetList, { client }));
  await expect(screen.findByText('Nobody', {}, { timeout: 3_000 })).rejects.toThrow(/Unable to find/);
});
