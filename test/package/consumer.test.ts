/**
 * The package as users get it: packed with `npm pack`, installed into a fresh project outside the
 * repository, and used from ES modules, CommonJS, strict TypeScript and the command line, on the
 * pinned Node 24 and on Node 22.12, the oldest release `engines` allows.
 */
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Manifest,
  manifestTargets,
  type PackedPackage,
  readManifest,
  sharedPackage,
} from './support/built-package.js';
import { CONSUMER_SCRIPTS, createConsumerProject, OTEL_CONSUMER } from './support/consumer-project.js';
import { browserBundleInputs, entryImports } from './support/import-graph.js';
import { startInstalledFakeServer } from './support/installed-command.js';
import { log } from './support/log.js';
import { NODE_22_VERSION, node22 } from './support/node22.js';
import { PINNED_NODE } from './support/repo.js';
import { run } from './support/run.js';
import { RESOLUTION_SETUPS, typeCheck } from './support/type-check.js';

// Building, packing, installing and (on a first run) downloading Node 22 take most of a minute.
const SETUP_TIMEOUT_MS = 120_000;
const TEST_TIMEOUT_MS = 30_000;
// One strict tsc run reads the package's declarations with redis's and ioredis's (about 550 files):
// about 10 s on an idle 2-core machine, several times that beside a busy test suite. The runs go
// one after another, as in parallel they only share the same two cores.
const TYPE_CHECK_TIMEOUT_MS = 120_000;

const NODES = [
  { node: 'Node 24', version: /^v24\./ },
  { node: 'Node 22.12', version: new RegExp(`^v${NODE_22_VERSION.replaceAll('.', '\\.')}$`) },
] as const;
type NodeName = (typeof NODES)[number]['node'];

const binaries = new Map<NodeName, string>();
const temporaryDirectories: string[] = [];
let manifest: Manifest;
let packed: PackedPackage;
let project: string;
let projectWithoutMsw: string;

function binary(node: NodeName): string {
  const path = binaries.get(node);
  if (path === undefined) throw new Error(`${node} was not set up`);
  return path;
}

function installed(...path: string[]): string {
  return join(project, 'node_modules', manifest.name, ...path);
}

beforeAll(async () => {
  manifest = await readManifest();
  packed = await sharedPackage();
  const [consumer, withoutMsw, oldestNode] = await Promise.all([
    createConsumerProject(packed.tarball, manifest),
    createConsumerProject(packed.tarball, manifest, []),
    node22(),
  ]);
  project = consumer;
  projectWithoutMsw = withoutMsw;
  temporaryDirectories.push(project, projectWithoutMsw);
  binaries.set('Node 24', PINNED_NODE).set('Node 22.12', oldestNode);
  log(`consumer project ready in ${project}`);
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(temporaryDirectories.map((path) => rm(path, { recursive: true, force: true })));
  log(`removed ${temporaryDirectories.join(', ')}`);
});

describe('the packed tarball', () => {
  it('holds the built files and the package documents, nothing else', () => {
    for (const file of packed.files) log(`  ${String(file.size).padStart(7)} B  ${file.path}`);
    log(`  tarball ${packed.size} B, unpacked ${packed.unpackedSize} B`);
    const paths = packed.files.map((file) => file.path);

    expect(
      paths.filter(
        (path) =>
          !/^(dist\/.+|docs\/.+\.(md|svg)|package\.json|README\.md|CONTRIBUTING\.md|CHANGELOG\.md|LICENSE)$/.test(
            path,
          ),
      ),
    ).toEqual([]);
    expect(paths.filter((path) => path.endsWith('.map'))).toEqual([]);
    expect(paths).toEqual(expect.arrayContaining(manifestTargets(manifest)));
  });

  it('ships declarations that augment no global and name no zod internal type of an error', async () => {
    const declarations = packed.files.map((file) => file.path).filter((path) => /\.d\.c?ts$/.test(path));
    expect(declarations.length).toBeGreaterThan(0);
    for (const path of declarations) {
      const text = await readFile(installed(path), 'utf8');
      expect(text, path).not.toMatch(/declare global|interface SymbolConstructor|\$ZodIssue/);
    }
  });

  it('ships the command as an executable Node script', async () => {
    const command = manifest.bin['animal-store-fake-server']?.replace(/^\.\//, '') ?? '';
    const file = packed.files.find((entry) => entry.path === command);
    const firstLine = (await readFile(installed(command), 'utf8')).split('\n')[0];

    expect(file).toBeDefined();
    expect((file?.mode ?? 0) & 0o111).toBe(0o111);
    expect(firstLine).toBe('#!/usr/bin/env node');
  });
});

describe('the Node binaries', () => {
  it.for(NODES)('$node reports its version', async ({ node, version }) => {
    const { stdout } = await run(binary(node), ['--version'], { cwd: project, node: binary(node) });
    log(`  ${node} is ${stdout.trim()}`);

    expect(stdout.trim()).toMatch(version);
  });
});

describe('a TypeScript application with the package installed', { timeout: TYPE_CHECK_TIMEOUT_MS }, () => {
  it.for(RESOLUTION_SETUPS)(
    'type-checks strictly with module $module and moduleResolution $moduleResolution',
    async (setup, { expect }) => {
      const { stdout } = await typeCheck(project, setup);

      expect(stdout).toBe('');
    },
  );
});

describe.concurrent('an application with the package installed', { timeout: TEST_TIMEOUT_MS }, () => {
  const scripts = NODES.flatMap(({ node, version }) =>
    (['esm', 'cjs'] as const).map((format) => ({ node, version, format })),
  );

  it.for(scripts)(
    'calls the fake store over HTTP from $format on $node',
    async ({ node, version, format }, { expect }) => {
      const { stdout } = await run(binary(node), [CONSUMER_SCRIPTS[format]], {
        cwd: project,
        node: binary(node),
      });
      log(`  ${format} on ${node}: ${stdout.trim()}`);
      const report = JSON.parse(stdout) as Record<string, unknown>;
      const extension = format === 'esm' ? 'js' : 'cjs';
      const rex = { id: 8, name: 'Rex', categoryId: 1, status: 'available' };

      expect(report.node).toMatch(version);
      expect(report.loaded).toEqual({
        sdk: expect.stringMatching(new RegExp(`/node_modules/animal-store-sdk/dist/index\\.${extension}$`)),
        testing: expect.stringMatching(
          new RegExp(`/node_modules/animal-store-sdk/dist/testing/index\\.${extension}$`),
        ),
      });
      expect(report.serverUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(report.created).toEqual(rex);
      expect(report.available).toEqual([rex]);
      expect(report.fetched).toEqual(rex);
      expect(report.missing).toEqual({
        isNotFoundError: true,
        name: 'NotFoundError',
        status: 404,
        code: 'not_found',
      });
      expect(report.rateLimit).toEqual({ limit: 60, remaining: 56 });
      expect(report.requestsSeen).toEqual(['POST /pets', 'GET /pets', 'GET /pets/8', 'GET /pets/404']);
      // animal-store-sdk/openapi.json is the document the fake serves, and the client's requests keep it.
      expect(report.openApi).toEqual({ version: '3.1.0', servedIsShipped: true, violations: [] });
    },
  );

  it.for(NODES)(
    'runs animal-store-fake-server on $node until SIGTERM',
    async ({ node }, { expect, onTestFinished }) => {
      const server = await startInstalledFakeServer(project, binary(node));
      onTestFinished(() => server.kill());

      const response = await fetch(`${server.url}/pets`, {
        headers: { Authorization: 'Bearer test-api-key' },
      });
      const pets = (await response.json()) as unknown[];
      log(`  GET ${server.url}/pets on ${node}: ${response.status}, ${pets.length} pets`);
      const exitCode = await server.terminate();

      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
      expect(response.status).toBe(200);
      expect(pets).toHaveLength(2);
      expect(exitCode).toBe(0);
      expect(server.stdout()).toContain('Received SIGTERM, stopping.\nStopped.\n');
    },
  );

  it('bundles the root entry for browsers without msw or Node modules', async ({ expect }) => {
    const inputs = await browserBundleInputs(project, "export * from 'animal-store-sdk';");
    log(`  browser bundle of animal-store-sdk: ${inputs.length} files`);

    // The package's browser build, under the `browser` condition.
    expect(inputs).toContain('node_modules/animal-store-sdk/dist/browser.js');
    expect(inputs.filter((input) => /(^|\/)node_modules\/msw\/|^node:/.test(input))).toEqual([]);
  });

  it.for([
    // zod/mini for the model, zod's core for the compiled object parser.
    ['index.js', ['ky', 'zod/mini', 'zod/v4/core']],
    // ky is an ES module only: the CommonJS build carries its own copy, for require in Jest's module system.
    ['index.cjs', ['zod/mini', 'zod/v4/core']],
  ] as const)('loads from the root entry %s only %s', async ([file, packages], { expect }) => {
    const { eager, lazy } = await entryImports(project, installed('dist', file));
    log(`  dist/${file} loads ${[...eager].join(', ')}; later ${[...lazy].join(', ') || 'nothing'}`);

    expect([...eager].sort()).toEqual(packages);
    expect([...lazy]).toEqual([]);
  });

  it('loads no msw from testing/index.js at once, and Node modules only when a server starts', async ({
    expect,
  }) => {
    const { eager, lazy } = await entryImports(project, installed('dist', 'testing', 'index.js'));
    log(`  dist/testing/index.js loads ${[...eager].join(', ')}; later ${[...lazy].join(', ')}`);

    expect([...eager].filter((name) => name.startsWith('msw'))).toEqual([]);
    expect([...eager].filter((name) => name.startsWith('node:'))).toEqual([]);
    // The HTTP server, and its control API's token check (node:crypto) and loopback check (node:net).
    expect([...lazy].sort()).toEqual(['node:crypto', 'node:http', 'node:net']);
  });

  it.for(['otel/index.js', 'otel/index.cjs'])(
    'loads OpenTelemetry and diagnostics_channel from %s, and nothing of it from the other entries',
    async (file, { expect }) => {
      const { eager, lazy } = await entryImports(project, installed('dist', file));
      log(`  dist/${file} loads ${[...eager].join(', ')}; later ${[...lazy].join(', ') || 'nothing'}`);
      const others = await Promise.all(
        ['index.js', 'testing/index.js', 'redis/index.js', 'store/index.js', 'diagnostics/index.js'].map(
          (entry) => entryImports(project, installed('dist', entry)),
        ),
      );

      expect([...eager].sort()).toEqual([
        '@opentelemetry/api',
        '@opentelemetry/instrumentation',
        'node:diagnostics_channel',
      ]);
      expect([...lazy]).toEqual([]);
      const loadedElsewhere = others.flatMap(({ eager: now, lazy: later }) => [...now, ...later]);
      expect(loadedElsewhere.filter((name) => /opentelemetry|diagnostics_channel/.test(name))).toEqual([]);
    },
  );

  it.for(['esm', 'cjs'])(
    'loads node:http from the %s build only when a server starts, and msw only when store.handlers is first read',
    async (format, { expect }) => {
      const { stdout } = await run(PINNED_NODE, ['lazy-msw.mjs', format], {
        cwd: project,
        node: PINNED_NODE,
      });
      log(`  ${format}: ${stdout.trim()}`);

      expect(JSON.parse(stdout)).toEqual({
        viaFetch: 2,
        overHttp: 2,
        beforeListen: [],
        beforeHandlers: ['node:http'],
        handlers: { count: 2 },
        afterHandlers: ['node:http', 'msw'],
      });
    },
  );

  it.for(['esm', 'cjs'])(
    'works without msw installed from the %s build, and says where msw is needed',
    async (format, { expect }) => {
      const { stdout } = await run(PINNED_NODE, ['lazy-msw.mjs', format], {
        cwd: projectWithoutMsw,
        node: PINNED_NODE,
      });
      log(`  ${format} without msw: ${stdout.trim()}`);
      const report = JSON.parse(stdout) as { handlers: { error?: string } };

      expect(report).toMatchObject({
        viaFetch: 2,
        overHttp: 2,
        beforeListen: [],
        beforeHandlers: ['node:http'],
      });
      expect(report.handlers.error).toMatch(
        /^Error: store\.handlers needs msw, which could not be loaded \(.*'msw'.*\)\. Install it where you use the handlers: npm install -D msw\. createFakePetStore\(\), store\.fetch and store\.listen\(\) work without it\.$/,
      );
    },
  );

  it.for(['diagnostics/index.js', 'diagnostics/index.cjs'])(
    'loads nothing from %s: a tracer imports the channels without the client',
    async (file, { expect }) => {
      const { eager, lazy } = await entryImports(project, installed('dist', file));
      log(
        `  dist/${file} loads ${[...eager].join(', ') || 'nothing'}; later ${[...lazy].join(', ') || 'nothing'}`,
      );

      expect([...eager, ...lazy]).toEqual([]);
    },
  );

  it.for(['redis/index.js', 'redis/index.cjs'])(
    'loads no Redis client from %s: the application passes its own',
    async (file, { expect }) => {
      const { eager, lazy } = await entryImports(project, installed('dist', file));
      log(`  dist/${file} loads ${[...eager].join(', ')}; later ${[...lazy].join(', ') || 'nothing'}`);

      expect([...eager].filter((name) => !['ky', 'zod', 'node:crypto'].includes(name))).toEqual([]);
      expect(eager).toContain('node:crypto');
      expect([...eager, ...lazy].filter((name) => /^(redis|ioredis|@redis\/)/.test(name))).toEqual([]);
    },
  );
});

describe.concurrent('an application traced with OpenTelemetry', { timeout: TEST_TIMEOUT_MS }, () => {
  interface ExportedSpan {
    readonly name: string;
    readonly kind: string;
    readonly scope: string;
    readonly status: number;
    readonly attributes: Record<string, unknown>;
    readonly events: { name: string; attributes: Record<string, unknown> }[];
    readonly children: ExportedSpan[];
  }
  interface Report {
    readonly node: string;
    readonly requests: { method: string; path: string; status: number; requestId: string }[];
    readonly roots: ExportedSpan[];
  }
  /** `name KIND (scope)`, its children indented below it. */
  const outline = (span: ExportedSpan, depth = 0): string[] => [
    `${'  '.repeat(depth)}${span.name} ${span.kind} (${span.scope})`,
    ...span.children.flatMap((child) => outline(child, depth + 1)),
  ];

  it.for(NODES)(
    'nests undici’s spans under the SDK’s attempts, under its calls, under the app’s on $node',
    async ({ node, version }, { expect }) => {
      const { stdout } = await run(binary(node), [OTEL_CONSUMER], { cwd: project, node: binary(node) });
      const report = JSON.parse(stdout) as Report;
      const tree = report.roots.flatMap((root) => outline(root));
      log(`  spans on ${node}:\n    ${tree.join('\n    ')}`);
      const [failed, retried, missing] = report.requests;
      const sdk = 'animal-store-sdk';
      const undici = '@opentelemetry/instrumentation-undici';

      expect(report.node).toMatch(version);
      expect(report.requests.map(({ status }) => status)).toEqual([503, 200, 404]);
      expect(tree).toEqual([
        'GET /adoptions SERVER (app)',
        `  listPets INTERNAL (${sdk})`,
        `    GET /pets CLIENT (${sdk})`,
        `      GET CLIENT (${undici})`,
        `    GET /pets CLIENT (${sdk})`,
        `      GET CLIENT (${undici})`,
        `  getPet INTERNAL (${sdk})`,
        `    GET /pets/{petId} CLIENT (${sdk})`,
        `      GET CLIENT (${undici})`,
      ]);
      const [listPets, getPet] = report.roots[0]?.children ?? [];
      const [first, second] = listPets?.children ?? [];
      const [lookup] = getPet?.children ?? [];
      expect(listPets?.attributes).toEqual({
        'animal_store.operation': 'listPets',
        'url.template': '/pets',
        'animal_store.attempts': 2,
        'http.response.status_code': 200,
        'animal_store.request_id': retried?.requestId,
      });
      expect(listPets?.events).toEqual([
        {
          name: 'animal_store.wait',
          attributes: { 'animal_store.wait.reason': 'backoff', 'animal_store.wait.ms': expect.any(Number) },
        },
      ]);
      const url = new URL(String(first?.attributes['url.full']));
      expect(url.pathname + url.search).toBe('/v1/pets?limit=2');
      expect(first?.attributes).toMatchObject({
        'http.request.method': 'GET',
        'url.template': '/pets',
        'server.address': '127.0.0.1',
        'server.port': Number(url.port),
        'http.response.status_code': 503,
        'error.type': '503',
        'animal_store.request_id': failed?.requestId,
      });
      expect(first?.attributes).not.toHaveProperty('http.request.resend_count');
      expect(second?.attributes).toMatchObject({
        'http.request.resend_count': 1,
        'http.response.status_code': 200,
        'animal_store.rate_limit.limit': 60,
        'animal_store.rate_limit.remaining': 59, // the injected 503 is not counted
      });
      expect(getPet).toMatchObject({ status: 2, attributes: { 'error.type': 'NotFoundError' } });
      expect(lookup?.attributes).toMatchObject({
        'url.template': '/pets/{petId}',
        'http.response.status_code': 404,
        'animal_store.request_id': missing?.requestId,
      });
    },
  );
});
