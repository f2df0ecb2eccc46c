// The process that valgrind counts: `node probe.mjs <contender> <calls> <baseUrl> <workload> [sdk]`
// makes `calls` calls of one workload through ky + classic zod (as the peer benchmark writes it) or
// through the SDK build at `sdk`, against the peer benchmark's server at `baseUrl`. Plain JavaScript,
// so that no loader's work is counted.
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
