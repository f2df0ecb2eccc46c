/**
 * The browser quickstart: a page that lists the available animals. The page holds no API key: it
 * calls a route of its own origin, /api/animal-store/v1, where the backend adds the key (in this
 * example, Vite's server, configured in vite.config.ts).
 *
 * @module
 */
import { PetStoreClient, RateLimitError } from '../../src/index.js';

// No key in the page (apiKey: null): the route adds it. A client given a string key here would
// refuse to run, since anyone who opens the page could read it.
const client = new PetStoreClient({
  apiKey: null,
  baseUrl: new URL('/api/animal-store/v1', window.location.origin).href,
});

const list = document.querySelector<HTMLUListElement>('#pets');
const status = document.querySelector<HTMLParagraphElement>('#status');
try {
  const pets = await client.listPets({ status: 'available', limit: 10 });
  list?.replaceChildren(
    ...pets.map((pet) =>
      Object.assign(document.createElement('li'), { textContent: `#${pet.id} ${pet.name}` }),
    ),
  );
  if (status)
    status.textContent = `${pets.length} available; ${client.rateLimit?.remaining ?? '?'} requests left`;
} catch (error) {
  const busy = error instanceof RateLimitError;
  if (status)
    status.textContent = busy ? 'Busy: try again in a minute' : `Failed: ${(error as Error).message}`;
}
