/**
 * `npm run bench`: what a call through the SDK costs beside raw fetch, what the fake store costs
 * through each of its ways in, and whether one client holds on to memory. Prints tables and writes
 * them, with the machine's description, as JSON (bench-results/latest.json by default).
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as sdk from '../../src/index.js';
import {
  type BrowserWeight,
  browserWeightTable,
  measureBrowserWeight,
} from '../bundle/support/browser-weight.js';
import { ensurePackageBuilt } from '../support/package-build.js';
import { builtSdk } from './built-sdk.js';
import type { ClientMemory } from './client-memory-probe.js';
import { measureClientOverhead, type OverheadResult, type SdkBuild } from './client-overhead.js';
import {
  type ColdStartResult,
  type ColdStartRuntime,
  coldStartTable,
  measureColdStart,
} from './cold-start.js';
import type { FakeStoreCost, Way } from './fake-store-probe.js';
import { type FleetRunResult, runFleet } from './fleet-run.js';
import { type HostileRow, runHostileInputs } from './hostile-input.js';
import { machineInfo } from './machine.js';
import { measureOpenLoop, type OpenLoopFigure } from './open-loop.js';
import { type BenchOptions, parseBenchOptions, USAGE } from './options.js';
import { type OverloadRow, overloadTable, runOverload } from './overload.js';
import { measurePeers, type PeerResult, type PeerService } from './peers/measure.js';
import { type PeerHeadline, peerHeadline, peerTable } from './peers/report.js';
import { runProbe } from './probe.js';
import {
  type ClientMemorySummary,
  clientMemoryTable,
  type FakeStoreSummary,
  fakeStoreTable,
  fleetTable,
  hostileTable,
  openLoopTable,
  overheadTable,
  parseTable,
  sessionsTable,
  soakTable,
  spreadTable,
  storeTable,
  summarizeClientMemory,
  summarizeFakeStore,
} from './report.js';
import { measureSchemaParse, type ParseResult } from './schema-parse.js';
import { runSessionChurn, type SessionsResult } from './sessions.js';
import { runSoak, type SoakResult } from './soak.js';
import { measureSpread, type SpreadFigure } from './spread.js';
import { startLoopbackServer } from './start-loopback-server.js';
import { measureStoreOverhead, type StoreOverheadResult } from './store-overhead.js';
import { formatNumber } from './table.js';
import { measureTracingOverhead } from './tracing-overhead.js';
import { repoRoot } from './tsx-process.js';

const WAYS: readonly Way[] = ['msw', 'fetch', 'http'];
/** msw holds on to every mocked connection, so it gets fewer calls than the other ways in. */
const FAKE_STORE_CALLS_SHARE = 0.4;

async function loadBuilds(options: BenchOptions): Promise<SdkBuild[]> {
  const variants = await Promise.all(
    options.variants.map(async ({ name, path }) => ({
      name,
      sdk: (await import(pathToFileURL(path).href)) as typeof sdk,
    })),
  );
  return [{ name: 'SDK', sdk: await builtSdk() }, ...variants];
}

function print(text: string): void {
  process.stdout.write(`\n${text}\n`);
}

/** Measures the cases of the SDK's builds against a loopback server started for them. */
async function perCall(
  options: BenchOptions,
  measure: typeof measureClientOverhead | typeof measureTracingOverhead,
): Promise<OverheadResult[]> {
  const builds = await loadBuilds(options);
  const server = await startLoopbackServer();
  try {
    return await measure(server, builds, options.cases, options.calls);
  } finally {
    await server.stop();
  }
}

async function fakeStore(options: BenchOptions): Promise<FakeStoreSummary[]> {
  const calls = Math.max(1, Math.round(options.calls * FAKE_STORE_CALLS_SHARE));
  const summaries = [];
  for (const way of WAYS) {
    const cost = await runProbe<FakeStoreCost>(new URL('./fake-store-probe.ts', import.meta.url), [
      `--way=${way}`,
      `--calls=${calls}`,
    ]);
    summaries.push(summarizeFakeStore(cost));
  }
  return summaries;
}

async function clientMemory(options: BenchOptions): Promise<ClientMemorySummary[]> {
  const summaries = [];
  for (const signal of ['none', 'shared']) {
    const memory = await runProbe<ClientMemory>(new URL('./client-memory-probe.ts', import.meta.url), [
      `--calls=${options.memoryCalls}`,
      `--signal=${signal}`,
    ]);
    summaries.push(summarizeClientMemory(memory));
  }
  return summaries;
}

/** The peer table, the SDK and each variant beside the other clients, the service answering as `where` says. */
async function peers(options: BenchOptions, where: PeerService): Promise<PeerResult[]> {
  const [built, ...variants] = await loadBuilds(options);
  const results = await measurePeers((built as SdkBuild).sdk, options.peerScale, variants, where);
  print(peerTable(results, where));
  return results;
}

async function storeOverhead(options: BenchOptions): Promise<StoreOverheadResult[]> {
  const server = await startLoopbackServer();
  try {
    return await measureStoreOverhead(server, options.calls);
  } finally {
    await server.stop();
  }
}

/** Runs the fleet each way, writes its drawings, and returns the figures without them. */
async function fleet(options: BenchOptions): Promise<Omit<FleetRunResult, 'svg'>[]> {
  const figures = [];
  await mkdir(options.svgDir, { recursive: true });
  for (const mode of ['per-process', 'redis'] as const) {
    const { svg, ...result } = await runFleet(mode);
    const file = join(options.svgDir, `fleet-${mode}.svg`);
    await writeFile(file, svg);
    process.stdout.write(`Drew ${relative(process.cwd(), file)}\n`);
    figures.push(result);
  }
  return figures;
}

/**
 * Node (the one running the benchmark), Node with its compile cache (which an application turns on
 * with NODE_COMPILE_CACHE; the warm-up start fills it), and Bun, when its binary runs here.
 */
function coldStartRuntimes(compileCache: string): ColdStartRuntime[] {
  const node = `Node ${process.versions.node}`;
  const runtimes: ColdStartRuntime[] = [
    { name: node, command: process.execPath },
    { name: `${node}, compile cache`, command: process.execPath, env: { NODE_COMPILE_CACHE: compileCache } },
  ];
  const bun = `${repoRoot}node_modules/.bin/bun`;
  try {
    const version = execFileSync(bun, ['--version'], { encoding: 'utf8' }).trim();
    runtimes.push({ name: `Bun ${version}`, command: bun });
  } catch {
    process.stderr.write(`Bun does not run here (${bun}); cold starts measured on Node only.\n`);
  }
  return runtimes;
}

async function coldStart(options: BenchOptions): Promise<ColdStartResult[]> {
  // The SDK is loaded as an application loads it: the built package, through its exports.
  await ensurePackageBuilt();
  const server = await startLoopbackServer();
  const compileCache = await mkdtemp(join(tmpdir(), 'animal-store-compile-cache-'));
  try {
    return await measureColdStart(
      coldStartRuntimes(compileCache),
      server.url,
      options.coldStarts,
      options.coldStartBaseline,
    );
  } finally {
    await server.stop();
    await rm(compileCache, { recursive: true, force: true });
  }
}

async function main(options: BenchOptions): Promise<void> {
  const started = performance.now();
  const machine = machineInfo();
  const loadBefore = loadavg();
  process.stdout.write(
    `${machine.date}  Node ${machine.node}  ${machine.cpuModel}, ${machine.cores} cores, ` +
      `${formatNumber(machine.memoryBytes / 1024 ** 3, 1)} GB  commit ${machine.commit ?? 'unknown'}  ` +
      `load average ${loadBefore.map((load) => load.toFixed(2)).join(' ')}\n` +
      `${formatNumber(options.calls)} calls per contender and case, ${formatNumber(options.memoryCalls)} in the memory run\n`,
  );
  const results: {
    browserWeight?: BrowserWeight;
    schemaParse?: ParseResult[];
    clientOverhead?: OverheadResult[];
    peers?: PeerResult[];
    peerHeadline?: PeerHeadline[];
    peersInProcess?: PeerResult[];
    peerInProcessHeadline?: PeerHeadline[];
    tracingOverhead?: OverheadResult[];
    fakeStore?: FakeStoreSummary[];
    clientMemory?: ClientMemorySummary[];
    coldStart?: ColdStartResult[];
    soak?: SoakResult;
    sessions?: SessionsResult;
    hostileInput?: HostileRow[];
    storeOverhead?: StoreOverheadResult[];
    fleet?: Omit<FleetRunResult, 'svg'>[];
    overload?: OverloadRow[];
    latency?: OpenLoopFigure[];
    spread?: SpreadFigure[];
  } = {};
  const run = new Set(options.sections);

  if (run.has('browser-weight')) {
    results.browserWeight = await measureBrowserWeight();
    print(
      `Browser weight: esbuild, minified, gzipped, from the packed tarball\n${browserWeightTable(results.browserWeight)}`,
    );
  }
  if (run.has('parse')) {
    results.schemaParse = measureSchemaParse();
    print(parseTable(results.schemaParse));
  }
  if (run.has('overhead')) {
    results.clientOverhead = await perCall(options, measureClientOverhead);
    print(overheadTable(results.clientOverhead));
  }
  if (run.has('peers')) {
    results.peers = await peers(options, 'loopback');
    results.peerHeadline = peerHeadline(results.peers);
  }
  if (run.has('peers-in-process')) {
    results.peersInProcess = await peers(options, 'in-process');
    results.peerInProcessHeadline = peerHeadline(results.peersInProcess);
  }
  if (run.has('tracing')) {
    results.tracingOverhead = await perCall(options, measureTracingOverhead);
    print(
      `The diagnostics channels' cost: the SDK with no subscriber, a bare one, OpenTelemetry\n${overheadTable(results.tracingOverhead)}`,
    );
  }
  if (run.has('fake-store')) {
    results.fakeStore = await fakeStore(options);
    print(fakeStoreTable(results.fakeStore));
  }
  if (run.has('memory')) {
    results.clientMemory = await clientMemory(options);
    print(clientMemoryTable(results.clientMemory));
  }
  if (run.has('soak')) {
    results.soak = await runSoak(options.soakRequests);
    print(soakTable(results.soak));
  }
  if (run.has('sessions')) {
    results.sessions = await runSessionChurn(500);
    print(sessionsTable(results.sessions));
  }
  if (run.has('hostile')) {
    results.hostileInput = await runHostileInputs();
    print(hostileTable(results.hostileInput));
  }
  if (run.has('cold-start')) {
    results.coldStart = await coldStart(options);
    print(coldStartTable(results.coldStart));
  }
  if (run.has('store')) {
    results.storeOverhead = await storeOverhead(options);
    print(storeTable(results.storeOverhead));
  }
  if (run.has('fleet')) {
    results.fleet = await fleet(options);
    print(fleetTable(results.fleet));
  }
  if (run.has('overload')) {
    results.overload = await runOverload(options.overload);
    print(overloadTable(results.overload, options.overload));
  }
  if (run.has('latency')) {
    results.latency = await measureOpenLoop(await builtSdk());
    print(openLoopTable(results.latency));
  }
  if (run.has('spread')) {
    results.spread = await measureSpread(await builtSdk());
    print(spreadTable(results.spread));
  }

  const durationSeconds = (performance.now() - started) / 1000;
  const report = {
    machine: { ...machine, loadAverageBefore: loadBefore, loadAverageAfter: loadavg() },
    options: {
      sections: options.sections,
      cases: options.cases,
      calls: options.calls,
      peerScale: options.peerScale,
      memoryCalls: options.memoryCalls,
      coldStarts: options.coldStarts,
      coldStartBaseline: options.coldStartBaseline,
      soakRequests: options.soakRequests,
      overload: options.overload,
      variants: options.variants,
    },
    durationSeconds,
    ...results,
  };
  await mkdir(dirname(options.out), { recursive: true });
  await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`);
  print(`Done in ${durationSeconds.toFixed(0)} s; results in ${relative(process.cwd(), options.out)}`);
}

const options = parseBenchOptions(process.argv.slice(2));
if (options.help) process.stdout.write(USAGE);
else await main(options);
