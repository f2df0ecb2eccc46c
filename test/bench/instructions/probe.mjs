// The process that valgrind counts: `node probe.mjs <contender> <calls> <baseUrl> <workload> [sdk]`
// makes `calls` calls of one workload against the peer benchmark's server at `baseUrl`, through ky +
// classic zod (`ky`, as the peer benchmark writes it), through the SDK build at `sdk` (`sdk`), or
// through ky driven as that build's transport drives it (`ky-as-sdk`), so that the SDK's own work
// shows apart from the way it uses ky. Plain JavaScript, so that no loader's work is counted.
import ky from 'ky';
import * as z from 'zod';

const [contender, calls, baseUrl, workload, sdkPath] = process.argv.slice(2);
const KEY = 'bench-key';
const NEW_PET = { name: 'Rex', categoryId: 1, status: 'available' };
const status = z.enum(['available', 'pending', 'sold']);
const Pet = z.object({ id: z.int(), name: z.string(), categoryId: z.int(), status: status.optional() });
const PetList = z.array(Pet);
const operation = workload === 'list50' ? 'listPets' : workload;

let call;
if (contender === 'ky') {
  const api = ky.create({ prefix: baseUrl, headers: { Authorization: `Bearer ${KEY}` } });
  call = {
    getPet: async (i) => Pet.parse(await api.get(`pets/${(i % 100) + 1}`).json()),
    listPets: async () => PetList.parse(await api.get('pets', { searchParams: { limit: 100 } }).json()),
    createPet: async () => Pet.parse(await api.post('pets', { json: NEW_PET }).json()),
  }[operation];
} else if (contender === 'ky-as-sdk') {
  // The SDK's ky instance and per-attempt work without the SDK: one attempt, its own timer and
  // controller, redirects left to the caller, the body read in full, then parsed and validated with
  // the SDK's own schemas. What the SDK adds on top (pacing, validation of arguments, the queue,
  // observation, errors, logging) is the difference between the two.
  const { PetListSchema, PetSchema } = await import(sdkPath);
  const api = ky.create({
    headers: { accept: 'application/json', authorization: `Bearer ${KEY}` },
    timeout: false,
    retry: 0,
  });
  const send = async (url, options, schema) => {
    const controller = new AbortController();
    let text;
    await api(url, {
      ...options,
      fetch: async (request, init) => {
        const timer = setTimeout(() => controller.abort(), 60_000);
        try {
          const response = await fetch(request, { ...init, redirect: 'manual', signal: controller.signal });
          text = await response.text();
          return response;
        } finally {
          clearTimeout(timer);
        }
      },
    });
    const result = schema['~standard'].validate(JSON.parse(text));
    if (result.issues) throw new Error('The answer does not match its schema');
    return result.value;
  };
  call = {
    getPet: (i) => send(`${baseUrl}/pets/${(i % 100) + 1}`, { method: 'GET' }, PetSchema),
    listPets: () => send(`${baseUrl}/pets?limit=100`, { method: 'GET' }, PetListSchema),
    createPet: () => send(`${baseUrl}/pets`, { method: 'POST', json: NEW_PET }, PetSchema),
  }[operation];
} else {
  const { PetStoreClient } = await import(sdkPath);
  const client = new PetStoreClient({ apiKey: KEY, baseUrl, logger: { warn: () => {} } });
  call = {
    getPet: (i) => client.getPet((i % 100) + 1),
    listPets: () => client.listPets({ limit: 100 }),
    createPet: () => client.createPet(NEW_PET),
  }[operation];
}

let next = 0;
const worker = async () => {
  while (next < Number(calls)) await call(next++);
};
await Promise.all(Array.from({ length: workload === 'list50' ? 50 : 1 }, worker));
