// The Testing Library test above, with Jest's names; React without JSX, as nothing transforms it here.
import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { render, screen } from '@testing-library/react';
import { PetStoreClient } from 'animal-store-sdk';
import { createFakePetStore, fakePetStoreConstants, samplePets } from 'animal-store-sdk/testing';
import { setupServer } from 'msw/node';
import { createElement, useEffect, useState } from 'react';

/** @param {{ client: PetStoreClient }} props */
function PetList({ client }) {
  const [pets, setPets] = useState(/** @type {import('animal-store-sdk').Pet[] | undefined} */ (undefined));
  useEffect(() => void client.listPets().then(setPets), [client]);
  if (pets === undefined) return createElement('p', null, 'Loading…');
  return createElement(
    'ul',
    null,
    pets.map((pet) => createElement('li', { key: pet.id }, pet.name)),
  );
}

const store = createFakePetStore({ pets: samplePets(3) });
const server = setupServer(...store.handlers);
beforeAll(() => server.listen({ onUnhandledFrame: 'error' }));
afterEach(() => store.reset());
afterAll(() => server.close());

it('shows the pets once the 429 is waited out', async () => {
  store.injectFault({ status: 429, headers: { 'Retry-After': '2' } });
  render(
    createElement(PetList, {
      client: new PetStoreClient({ apiKey: fakePetStoreConstants.defaultApiKey, baseUrl: store.baseUrl }),
    }),
  );

  expect(await screen.findByText('Rex')).toBeTruthy(); // 2 s of fake time, a fraction of a real one
});
