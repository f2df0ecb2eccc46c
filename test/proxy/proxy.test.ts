/**
 * The client behind a forward proxy, each way the README's "Behind a proxy" gives: Node's
 * `NODE_USE_ENV_PROXY` with `HTTP_PROXY` and `HTTPS_PROXY`, undici's `ProxyAgent` through the `fetch`
 * option, and what Bun and Deno read from the environment. The service's host name
 * (`animal-store.test`) resolves nowhere, so a call succeeds only through the proxy, which records
 * what passed: to an `http://` service every request, key included; to an `https://` one only the
 * tunnel it opened, since what goes through it is encrypted.
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { type AddressInfo, connect } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { ProxyAgent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PetStoreClient } from '../../src/index.js';
import { createFakePetStore, type RunningFakeServer, samplePets } from '../../src/testing/index.js';
import { DEFAULT_API_KEY } from '../../src/testing/store/fake-store.js';
import { PINNED_NODE } from '../package/support/repo.js';
import { run } from '../package/support/run.js';
import { type RuntimeProject, runtimeProject } from '../runtimes/support/runtime-project.js';
import { locateRuntime } from '../runtimes/support/runtimes.js';
import { type RecordingProxy, startRecordingProxy } from './support/recording-proxy.js';

const BASE_URL = 'http://animal-store.test/v1';
const HTTPS_BASE_URL = 'https://animal-store.test/v1';

/** The application: one call through whatever fetch the runtime has, reporting what it got. */
const application = (baseUrl: string) => `import { PetStoreClient } from 'animal-store-sdk';

const client = new PetStoreClient({ apiKey: '${DEFAULT_API_KEY}', baseUrl: '${baseUrl}', maxRetries: 0 });
const pets = await client.listPets();
console.log(JSON.stringify({ pets: pets.map((pet) => pet.name) }));
`;

/** A test authority, and the certificate for animal-store.test it signed (fixtures/README.md). */
const FIXTURES = fileURLToPath(new URL('./fixtures/', import.meta.url));
const TEST_CA = join(FIXTURES, 'test-ca.crt');

const bun = locateRuntime('Bun', 'the proxy test on Bun');
const deno = locateRuntime('Deno', 'the proxy test on Deno');

let server: RunningFakeServer;
let tls: TlsServer;
let proxy: RecordingProxy;
let project: RuntimeProject;
const store = createFakePetStore({ pets: samplePets(2) });
const names = store.pets.map((pet) => pet.name);

beforeAll(async () => {
  server = await store.listen();
  // The service over TLS, with the certificate for animal-store.test: TLS ends here, and the
  // requests go on to the fake store.
  tls = createTlsServer(
    {
      key: readFileSync(join(FIXTURES, 'animal-store.test.key')),
      cert: readFileSync(join(FIXTURES, 'animal-store.test.crt')),
    },
    (socket) => {
      const upstream = connect(server.port, '127.0.0.1');
      socket.pipe(upstream).pipe(socket);
      upstream.on('error', () => socket.destroy());
      socket.on('error', () => upstream.destroy());
    },
  );
  await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
  proxy = await startRecordingProxy(new URL(server.url).origin, (tls.address() as AddressInfo).port);
  project = await runtimeProject();
  await writeFile(join(project.directory, 'proxied-application.js'), application(BASE_URL));
  await writeFile(join(project.directory, 'proxied-https-application.js'), application(HTTPS_BASE_URL));
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await new Promise((resolve) => (tls ? tls.close(resolve) : resolve(undefined)));
  await server?.close();
});

/** What the proxy passed for one `listPets()`: the request, with the key, and the store's answer. */
function expectProxied(from: number): void {
  expect(proxy.requests.slice(from)).toEqual([
    { method: 'GET', url: `${BASE_URL}/pets`, authorization: `Bearer ${DEFAULT_API_KEY}`, status: 200 },
  ]);
}

/** What the proxy saw of one `listPets()` to the https:// service: a tunnel opened, nothing inside it. */
function expectTunnelled(from: number): void {
  const seen = proxy.requests.slice(from);
  expect(seen.length).toBeGreaterThanOrEqual(1);
  for (const request of seen) {
    expect(request).toEqual({
      method: 'CONNECT',
      url: 'animal-store.test:443',
      authorization: undefined,
      status: 200,
    });
  }
}

const runtimes = [
  {
    name: 'Node 24 with NODE_USE_ENV_PROXY=1 and HTTP_PROXY',
    command: () => PINNED_NODE,
    args: ['proxied-application.js'],
    env: () => ({ NODE_USE_ENV_PROXY: '1', HTTP_PROXY: proxy.url }),
    tunnelled: false,
  },
  {
    name: 'Node 24 with NODE_USE_ENV_PROXY=1 and HTTPS_PROXY, to an https:// service',
    command: () => PINNED_NODE,
    args: ['proxied-https-application.js'],
    env: () => ({ NODE_USE_ENV_PROXY: '1', HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: TEST_CA }),
    tunnelled: true,
  },
  ...(bun === undefined
    ? []
    : [
        {
          name: `Bun ${bun.version} with HTTP_PROXY`,
          command: () => bun.path,
          args: ['proxied-application.js'],
          env: () => ({ HTTP_PROXY: proxy.url }),
          tunnelled: false,
        },
        {
          name: `Bun ${bun.version} with HTTPS_PROXY, to an https:// service`,
          command: () => bun.path,
          args: ['proxied-https-application.js'],
          env: () => ({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: TEST_CA }),
          tunnelled: true,
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
          tunnelled: false,
        },
        {
          name: `Deno ${deno.version} with HTTPS_PROXY, to an https:// service`,
          command: () => deno.path,
          args: ['run', '--allow-all', '--node-modules-dir=manual', 'proxied-https-application.js'],
          env: () => ({ HTTPS_PROXY: proxy.url, DENO_CERT: TEST_CA }),
          tunnelled: true,
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
    if (runtime.tunnelled) expectTunnelled(from);
    else expectProxied(from);
  });

  it.for([
    { service: 'an http:// service', baseUrl: BASE_URL, tls: false },
    {
      service: 'an https:// service, through a tunnel that hides the key',
      baseUrl: HTTPS_BASE_URL,
      tls: true,
    },
  ])(
    "undici's ProxyAgent through the fetch option sends every request to $service through it",
    async ({ baseUrl, tls }) => {
      const from = proxy.requests.length;
      const dispatcher = new ProxyAgent({
        uri: proxy.url,
        ...(tls && { requestTls: { ca: readFileSync(TEST_CA) } }),
      });
      const client = new PetStoreClient({
        apiKey: DEFAULT_API_KEY,
        baseUrl,
        maxRetries: 0,
        // Node's fetch takes undici's `dispatcher`, which the DOM's RequestInit type does not know.
        fetch: (input, init) => fetch(input, { ...init, dispatcher } as RequestInit),
      });
      const pets = await client.listPets();
      await dispatcher.close();

      expect(pets.map((pet) => pet.name)).toEqual(names);
      if (tls) expectTunnelled(from);
      else expectProxied(from);
    },
  );
});
