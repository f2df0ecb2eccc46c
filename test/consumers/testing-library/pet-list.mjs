// The component under test: it lists the pets a client returns, as an application's page would.
import { createElement as h, useEffect, useState } from 'react';

export function PetList({ client }) {
  const [pets, setPets] = useState();
  const [error, setError] = useState();
  useEffect(() => {
    client.listPets().then(setPets, setError);
  }, [client]);
  if (error !== undefined) return h('p', { role: 'alert' }, String(error));
  if (pets === undefined) return h('p', null, 'Loading…');
  return h(
    'ul',
    null,
    pets.map((pet) => h('li', { key: pet.id }, pet.name)),
  );
}

/** Real time, whatever the runner fakes: taken before any test fakes `performance`. */
export const realNow = performance.now.bind(performance);

/** Where the test runs, for its report. */
export function environment() {
  const agent = globalThis.navigator?.userAgent ?? '';
  if (agent.includes('jsdom')) return 'jsdom';
  if (agent.includes('HappyDOM')) return 'happy-dom';
  if (agent.includes('Chrome')) return 'chromium';
  return 'unknown';
}
