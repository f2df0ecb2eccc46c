// vitest's browser mode in Chromium: React Testing Library's findByText on vitest's fake clock, while
// msw's service worker (written by `npx msw init public`) answers the component's calls.
import { cleanup, configure, render, screen } from '@testing-library/react';
import { PetStoreClient } from 'animal-store-sdk';
import {
  createFakePetStore,
  fakePetStoreConstants,
  fakeTimeForTestingLibrary,
  samplePets,
} from 'animal-store-sdk/testing';
import { setupWorker } from 'msw/browser';
import { createElement } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { environment, PetList, realNow } from './pet-list.mjs';

// The page calls a route of its own origin that adds the key (apiKey: null); the store plays that
// route, serving a request without a key as the route's key.
const store = createFakePetStore({
  baseUrl: new URL('/api/animal-store/v1', window.location.origin),
  proxyKey: fakePetStoreConstants.defaultApiKey,
  pets: samplePets(3),
});
const client = () => new PetStoreClient({ apiKey: null, baseUrl: store.baseUrl });
const worker = setupWorker(...store.handlers);
// The test runner's own requests are not the store's: msw lets them through.
beforeAll(async () => {
  await worker.start({ quiet: true, onUnhandledFrame: 'bypass' });
  // One render first, with real timers: the wall time measured below is then the wait's, not that
  // of the first render and the first call.
  render(createElement(PetList, { client: client() }));
  await screen.findByText('Rex');
  cleanup();
  store.reset();
});
afterAll(() => worker.stop());

configure(fakeTimeForTestingLibrary((ms) => vi.advanceTimersByTimeAsync(ms)));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  store.reset();
});

it('findByText waits out a 429 with Retry-After: 2 in fake time', async () => {
  store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
  const fakeStart = Date.now();
  const wallStart = realNow();

  render(createElement(PetList, { client: client() }));
  expect(await screen.findByText('Rex')).toBeTruthy();

  const wall = realNow() - wallStart;
  const fake = Date.now() - fakeStart;
  console.log(`findByText ${environment()}: ${Math.round(wall)} ms real, ${fake} ms fake`);
  expect(store.requests.map((request) => request.status)).toEqual([429, 200]);
  expect(fake).toBeGreaterThanOrEqual(2_000);
  expect(wall).toBeLessThan(1_500);
});
