import { configure, render, screen } from '@testing-library/react';
import { type Pet, PetStoreClient } from 'animal-store-sdk';
import {
  createFakePetStore,
  fakePetStoreConstants,
  fakeTimeForTestingLibrary,
  samplePets,
} from 'animal-store-sdk/testing';
import { setupServer } from 'msw/node';
import { useEffect, useState } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';

function PetList({ client }: { client: PetStoreClient }) {
  const [pets, setPets] = useState<Pet[]>();
  useEffect(() => void client.listPets().then(setPets), [client]);
  return pets === undefined ? (
    <p>Loading…</p>
  ) : (
    <ul>
      {pets.map((pet) => (
        <li key={pet.id}>{pet.name}</li>
      ))}
    </ul>
  );
}

const store = createFakePetStore({ pets: samplePets(3) });
const server = setupServer(...store.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterAll(() => server.close());

configure(fakeTimeForTestingLibrary((ms) => vi.advanceTimersByTimeAsync(ms)));
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  store.reset();
});

it('shows the pets once the 429 is waited out', async () => {
  store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
  render(
    <PetList
      client={new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: store.baseUrl })}
    />,
  );

  expect(await screen.findByText('Rex')).toBeTruthy(); // 2 s of fake time, a fraction of a real one
});
