/**
 * The client behind a forward proxy, each way the README's "Behind a proxy" gives: Node's
 * `NODE_USE_ENV_PROXY` with `HTTP_PROXY`, undici's `ProxyAgent` through the `fetch` option, and what
 * Bun and Deno read from the environment. The service's host name (`animal-store.test`) resolves
 * nowhere, so a call succeeds only through the proxy, which records what passed.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import {
  createFakePetStore,
  DEFAULT_API_KEY,
  type RunningFakeServer,
  samplePets,
} from '../../src/testing/index.js';
import { PINNED_NODE } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { type RuntimeProject, runtimeProject } from '../runtimes/support/runtime-project.js';
import { locateRuntime } from '../runtimes/support/runtimes.js';
import { type RecordingProxy, startRecordingProxy } from './support/recording-proxy.js';

const BASE_URL = 'http://animal-store.test/v1';

/** The application: one call through whatever fetch the runtime has, reporting what it got. */
const APPLICATION = `import { PetStoreClient } from 'animal-store-sdk';

const client = new PetStoreClient({ apiKey: '${DEFAULT_API_KEY}', baseUrl: '${BASE_URL}', maxRetries: 0 });
const pets = await client.listPets();
console.log(JSON.stringify({ pets: pets.map((pet) => pet.name) }));
`;

const bun = locateRuntime('Bun', 'the proxy test on Bun');
const deno = locateRuntime('Deno', 'the proxy test on Deno');

let server: RunningFakeServer;
let proxy: RecordingProxy;
let project: RuntimeProject;
const store = createFakePetStore({ pets: samplePets(2) });
const names = store.pets.map((pet) => pet.name);

beforeAll(async () => {
  server = await store.listen();
  proxy = await startRecordingProxy(new URL(server.url).origin);
  project = await runtimeProject();
  await writeFile(join(project.directory, 'proxied-application.js'), APPLICATION);
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await server?.close();
});

/** What the proxy passed for one `listPets()`: the request, with the key, and the store's answer. */
function expectProxied(from: number): void {
  expect(proxy.requests.slice(from)).toEqual([
    { method: 'GET', url: `${BASE_URL}/pets`, authorization: `Bearer ${DEFAULT_API_KEY}`, status: 200 },
  ]);
}

const runtimes = [
  {
    name: 'Node 24 with NODE_USE_ENV_PROXY=1 and HTTP_PROXY',
    command: () => PINNED_NODE,
    args: ['proxied-application.js'],
    env: () => ({ NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxy.url }),
  },
  ...(bun === undefined
    ? []
    : [
        {
          name: `Bun ${bun.version} with HTTP_PROXY`,
          command: () => bun.path,
          args: ['proxied-application.js'],
          env: () => ({ HTTP_PROXY: proxy.url }),
        },
      ]),
  ...(deno === undefined
    ? []
    : [
        {
          name: `Deno ${deno.version} with HTTP_PROXY`,
          command: () => deno.path,
          args: ['run', '--allow-all', '--node-modules-dir=manual', 'proxied-application.js'],
          env: () => ({ HTTP_PROXY: proxy.url }),
        },
      ]),
];

// One after another: each reads the proxy's log from where the one before it left off.
describe('behind a forward proxy', { timeout: 60_000 }, () => {
  it.for(runtimes)('$name sends every request through it', async (runtime) => {
    const from = proxy.requests.length;
    const { stdout } = await run(runtime.command(), runtime.args, {
      cwd: project.directory,
      node: PINNED_NODE,
      env: { ...runtime.env(), NO_PROXY: '', no_proxy: '' },
      timeoutMs: 55_000,
    });

    expect(JSON.parse(stdout.trim().split('\n').at(-1) ?? '')).toEqual({ pets: names });
    expectProxied(from);
  });

  it("undici's ProxyAgent through the fetch option sends every request through it", async () => {
    const from = proxy.requests.length;
    const dispatcher = new ProxyAgent(proxy.url);
    const client = new PetStoreClient({
      apiKey: DEFAULT_API_KEY,
      baseUrl: BASE_URL,
      maxRetries: 0,
      // Node's fetch takes undici's `dispatcher`, which the DOM's RequestInit type does not know.
      fetch: (input, init) => fetch(input, { ...init, dispatcher } as RequestInit),
    });
    const pets = await client.listPets();
    await dispatcher.close();

    expect(pets.map((pet) => pet.name)).toEqual(names);
    expectProxied(from);
  });
});
