/**
 * Cold start: the time a fresh process takes to load a client library and make its first call, the
 * cost a serverless function pays on every cold start. Each sample is its own process; runtimes and
 * contenders alternate from round to round so that machine noise falls on all of them alike.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { BENCH_API_KEY } from './constants.js';
import { formatNumber, formatTable } from './table.js';
import { repoRoot } from './tsx-process.js';

const PROBE = fileURLToPath(new URL('./cold-start-probe.mjs', import.meta.url));

/** What a cold start loads and calls: the probe's contender, and the module its `sdk` imports. */
interface Contender {
  readonly name: string;
  readonly kind: 'fetch' | 'sdk' | 'openai';
  readonly module?: string;
}

const RAW_FETCH = 'raw fetch (first call)';

/** A runtime to start processes with. */
export interface ColdStartRuntime {
  readonly name: string;
  readonly command: string;
  /** Variables set for its processes. */
  readonly env?: Readonly<Record<string, string>>;
}

/** The medians of one contender on one runtime, in milliseconds. */
export interface ColdStartResult {
  readonly runtime: string;
  readonly contender: string;
  readonly samples: number;
  /** From spawning the process to its exit, as the parent sees it. */
  readonly processMs: number;
  readonly importMs: number;
  readonly firstCallMs: number;
  /** Import and first call: the script's own time. */
  readonly scriptMs: number;
}

interface Sample {
  readonly processMs: number;
  readonly importMs: number;
  readonly firstCallMs: number;
  readonly scriptMs: number;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

async function sample(runtime: ColdStartRuntime, contender: Contender, url: string): Promise<Sample> {
  const started = performance.now();
  const args = [PROBE, contender.kind, url, BENCH_API_KEY, ...(contender.module ? [contender.module] : [])];
  const child = spawn(runtime.command, args, {
    cwd: repoRoot,
    env: { ...process.env, ...runtime.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  let result: Omit<Sample, 'processMs'> | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    if (line.startsWith('result '))
      result = JSON.parse(line.slice('result '.length)) as Omit<Sample, 'processMs'>;
  }
  const code = await exited;
  const processMs = performance.now() - started;
  if (code !== 0 || result === undefined)
    throw new Error(`${runtime.name} ${contender.name}: the probe failed (${code})`);
  return { ...result, processMs };
}

/** Bundles an application that uses the client into one ES module file; resolves with its URL. */
async function bundleApp(directory: string): Promise<string> {
  const outfile = join(directory, 'app.mjs');
  await esbuild.build({
    stdin: {
      contents: "export { PetStoreClient } from 'animal-store-sdk';",
      resolveDir: repoRoot,
      loader: 'js',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'es2022',
    outfile,
    logLevel: 'silent',
  });
  return pathToFileURL(outfile).href;
}

/**
 * Runs `rounds` rounds of every runtime and contender against the loopback server at `url`.
 * `baseline`, the root of another build of the package (its dist/ built), is measured beside this one.
 */
export async function measureColdStart(
  runtimes: readonly ColdStartRuntime[],
  url: string,
  rounds: number,
  baseline?: string,
): Promise<ColdStartResult[]> {
  const samples = new Map<string, Sample[]>();
  const key = (runtime: ColdStartRuntime, contender: string) => `${runtime.name}\u0000${contender}`;
  const directory = await mkdtemp(join(tmpdir(), 'animal-store-cold-start-'));
  const contenders: Contender[] = [];
  try {
    contenders.push(
      { name: RAW_FETCH, kind: 'fetch' },
      { name: 'animal-store-sdk (import + first call)', kind: 'sdk' },
      ...(baseline === undefined
        ? []
        : [
            {
              name: `baseline: ${baseline}`,
              kind: 'sdk' as const,
              module: pathToFileURL(join(baseline, 'dist/index.js')).href,
            },
          ]),
      {
        name: 'animal-store-sdk bundled into the app (esbuild)',
        kind: 'sdk',
        module: await bundleApp(directory),
      },
      { name: 'openai (import + new OpenAI())', kind: 'openai' },
    );
    // One warm-up start each, so that the file system cache is as warm for the first as for the last.
    for (const runtime of runtimes) {
      for (const contender of contenders) await sample(runtime, contender, url);
    }
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? contenders : [...contenders].reverse();
      for (const runtime of runtimes) {
        for (const contender of order) {
          const list = samples.get(key(runtime, contender.name)) ?? [];
          list.push(await sample(runtime, contender, url));
          samples.set(key(runtime, contender.name), list);
        }
      }
    }
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
  return runtimes.flatMap((runtime) =>
    contenders.map(({ name }) => {
      const list = samples.get(key(runtime, name)) ?? [];
      return {
        runtime: runtime.name,
        contender: name,
        samples: list.length,
        processMs: median(list.map((s) => s.processMs)),
        importMs: median(list.map((s) => s.importMs)),
        firstCallMs: median(list.map((s) => s.firstCallMs)),
        scriptMs: median(list.map((s) => s.scriptMs)),
      };
    }),
  );
}

/** The medians per runtime, with each contender's script time over raw fetch's. */
export function coldStartTable(results: readonly ColdStartResult[]): string {
  const fetchScript = new Map(
    results.filter((result) => result.contender === RAW_FETCH).map((r) => [r.runtime, r.scriptMs]),
  );
  const ms = (value: number) => formatNumber(value, 1);
  const rows = results.map((result) => [
    result.runtime,
    result.contender,
    ms(result.importMs),
    ms(result.firstCallMs),
    ms(result.scriptMs),
    (result.scriptMs / (fetchScript.get(result.runtime) ?? Number.NaN)).toFixed(1),
    ms(result.processMs),
  ]);
  return [
    `Cold start, medians of ${results[0]?.samples ?? 0} fresh processes each, ms (script = import + first call;` +
      ' ratio = script / raw fetch script; process = spawn to exit)',
    formatTable(['runtime', 'contender', 'import', 'first call', 'script', 'ratio', 'process'], rows),
  ].join('\n');
}
