/**
 * A tour of the client: list, create, read one pet (the deprecated way and its replacement), the
 * raw response, and the rate-limit reading.
 *
 *   npm start
 *   npm run example -- quickstart
 *   PETSTORE_BASE_URL=https://… PETSTORE_API_KEY=… npx tsx examples/quickstart.ts
 *
 * @module
 */
import { PetStoreClient } from '../src/index.js';
import { openTarget } from './support/target.js';

const target = await openTarget();
try {
  const client = new PetStoreClient({ apiKey: target.apiKey, baseUrl: target.baseUrl });

  // Arguments are checked before sending: limit must be 1 to 100, status one of three values.
  const pets = await client.listPets({ limit: 5 });
  console.log(`listPets: ${pets.length} pets: ${pets.map((pet) => `#${pet.id} ${pet.name}`).join(', ')}`);

  const biscuit = await client.createPet({ name: 'Biscuit', categoryId: 1, status: 'available' });
  console.log(`createPet: created #${biscuit.id} ${biscuit.name} (${biscuit.status})`);

  // getPet is deprecated (removed on 5 December 2030): the first call in a process warns once
  // through the client's logger, console.warn by default, so the warning goes to stderr.
  const same = await client.getPet(biscuit.id);
  console.log(`getPet: #${same.id} is ${same.name}`);

  // Its replacement: filter the list by status and pick the pet out.
  const available = await client.listPets({ status: 'available', limit: 100 });
  const found = available.find((pet) => pet.id === biscuit.id);
  console.log(
    `listPets({ status: 'available' }): ${available.length} pets, #${biscuit.id} among them: ${found !== undefined}`,
  );

  // withResponse() gives the HTTP response alongside the parsed data, for headers such as Location.
  const { data: pepper, response } = await client.createPet({ name: 'Pepper', categoryId: 2 }).withResponse();
  console.log(
    `withResponse: ${response.status} ${response.statusText}, Location: ${response.headers.get('location')}, created #${pepper.id} ${pepper.name} (${pepper.status})`,
  );

  // The latest X-RateLimit-* reading, kept by the client after every response.
  const rateLimit = client.rateLimit;
  if (rateLimit === null) {
    console.log('rateLimit: the service sent no rate-limit headers');
  } else {
    const seconds = Math.max(0, Math.ceil((rateLimit.reset.getTime() - Date.now()) / 1000));
    console.log(
      `rateLimit: ${rateLimit.remaining} of ${rateLimit.limit} requests left, window resets in ${seconds} s`,
    );
  }
} finally {
  await target.close();
}
