/**
 * `npx tsx test/bench/profile.ts [--workload NAME] [--calls N] [--variant NAME=PATH]...`: where the
 * time of a call of one peer workload goes (`--workload` is the start of its name: `list 100 pets, seq`
 * by default, `list 100 pets, 50`, `getPet`, `createPet`), beside raw fetch, ky + zod and
 * openapi-fetch + zod, against the peer benchmark's fixed server.
 *
 * It counts the objects each call makes that are known to be costly (Requests, AbortControllers,
 * timers), then CPU-profiles each contender in this process and attributes the self time to the code
 * that spent it (SDK, ky, zod, undici, ...), in microseconds per call. `--variant` adds another build of
 * the SDK (PATH is its dist/index.js or src/index.ts), as `npm run bench` does.
 *
 * @module
 */
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import type * as sdk from '../../src/index.js';
import { builtSdk } from './built-sdk.js';
import { peerContenders } from './peers/contenders.js';
import { PEER_WORKLOADS } from './peers/measure.js';
import { startLoopbackServer } from './start-loopback-server.js';

const PEER_SERVER = new URL('./peers/server.ts', import.meta.url).pathname;

import { formatTable } from './table.js';
import { type Contender, timeCalls } from './timing.js';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const SOCKET_WRITES = new Set(['writeLatin1String', 'writeUtf8String', 'writeBuffer', 'writev']);

/** Where a function's code comes from. */
function origin({ functionName, url }: ProfileNode['callFrame']): string {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(idle)') return 'idle (waiting for the server)';
  // A write to a loopback socket runs the receiving side's TCP stack and wakes the server in the
  // sender's system call: on a small machine that time is mostly the server's, not the client's.
  if (SOCKET_WRITES.has(functionName)) return 'socket writes (incl. loopback delivery)';
  if (functionName === '(program)') return 'V8/native, unattributed';
  if (url.includes('/node_modules/ky/')) return 'ky';
  if (url.includes('/node_modules/zod/')) return 'zod';
  if (!url.includes('/node_modules/') && (url.includes('/src/') || url.includes('/dist/'))) return 'SDK';
  if (url.includes('/test/bench/')) return 'benchmark loop';
  if (url.includes('node:internal/deps/undici')) return 'undici (fetch, Request, Headers, body)';
  if (url.includes('webstreams') || url.includes('streams')) return 'Node streams';
  if (url.startsWith('node:')) return 'other Node internals';
  return 'builtins (JSON.parse, URL, ...)';
}

/**
 * Self time in microseconds, by origin and by function, of the samples taken in the first `windowUs`
 * of the profile: the samples after it belong to stopping the profiler.
 */
function selfTimes(profile: CpuProfile, windowUs: number) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const byOrigin = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let elapsed = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    elapsed += delta;
    const node = byId.get(id);
    if (node === undefined || elapsed > windowUs) return;
    const from = origin(node.callFrame);
    byOrigin.set(from, (byOrigin.get(from) ?? 0) + delta);
    const file = node.callFrame.url.replace(/^.*\/(node_modules|src)\//, '$1/');
    const { functionName, lineNumber, columnNumber } = node.callFrame;
    const name = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}:${columnNumber + 1}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + delta);
  });
  return { byOrigin, byFunction };
}

/** Counts constructions and timers while `run` runs. */
async function countWork(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts = { Request: 0, AbortController: 0, 'AbortSignal.any': 0, setTimeout: 0, Headers: 0 };
  const originals = {
    Request: globalThis.Request,
    AbortController: globalThis.AbortController,
    any: AbortSignal.any,
    setTimeout: globalThis.setTimeout,
    Headers: globalThis.Headers,
  };
  globalThis.Request = class extends originals.Request {
    constructor(...args: ConstructorParameters<typeof Request>) {
      super(...args);
      counts.Request++;
    }
  };
  globalThis.AbortController = class extends originals.AbortController {
    constructor() {
      super();
      counts.AbortController++;
    }
  };
  globalThis.Headers = class extends originals.Headers {
    constructor(...args: ConstructorParameters<typeof Headers>) {
      super(...args);
      counts.Headers++;
    }
  };
  AbortSignal.any = (signals) => {
    counts['AbortSignal.any']++;
    return originals.any.call(AbortSignal, signals);
  };
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    counts.setTimeout++;
    return originals.setTimeout(...args);
  }) as typeof setTimeout;
  try {
    await run();
  } finally {
    globalThis.Request = originals.Request;
    globalThis.AbortController = originals.AbortController;
    globalThis.Headers = originals.Headers;
    AbortSignal.any = originals.any;
    globalThis.setTimeout = originals.setTimeout;
  }
  return counts;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      calls: { type: 'string' },
      workload: { type: 'string' },
      variant: { type: 'string', multiple: true },
    },
  });
  const calls = Number(values.calls ?? 3_000);
  const workload = PEER_WORKLOADS.find((entry) =>
    entry.name.startsWith(values.workload ?? 'list 100 pets, seq'),
  );
  if (workload === undefined) {
    throw new Error(`--workload names one of: ${PEER_WORKLOADS.map((entry) => entry.name).join('; ')}`);
  }
  const variants = await Promise.all(
    (values.variant ?? []).map(async (spec) => {
      const separator = spec.indexOf('=');
      const path = resolve(spec.slice(separator + 1));
      return { name: spec.slice(0, separator), sdk: (await import(pathToFileURL(path).href)) as typeof sdk };
    }),
  );
  const server = await startLoopbackServer(PEER_SERVER);
  const peers = peerContenders(await builtSdk(), server.url, workload.operation);
  const pick = (name: string) => peers.find((contender) => contender.name === name) as Contender;
  const contenders: Contender[] = [
    pick('SDK'),
    ...variants.map(({ name, sdk: build }) => ({
      ...(peerContenders(build, server.url, workload.operation).at(-1) as Contender),
      name,
    })),
    pick('raw fetch'),
    pick('ky + zod'),
    pick('openapi-fetch + zod'),
  ];
  const concurrency = workload.concurrency;

  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  const profiles = new Map<string, ReturnType<typeof selfTimes>>();
  const work = new Map<string, Record<string, number>>();
  for (const contender of contenders) {
    await timeCalls(contender.call, 500, concurrency);
    const counted = await countWork(() => timeCalls(contender.call, 100, concurrency));
    work.set(contender.name, Object.fromEntries(Object.entries(counted).map(([key, n]) => [key, n / 100])));
    await server.reset();
    await session.post('Profiler.start');
    const ms = await timeCalls(contender.call, calls, concurrency);
    const { profile } = await session.post('Profiler.stop');
    profiles.set(contender.name, selfTimes(profile as CpuProfile, ms * 1000));
  }
  session.disconnect();
  await server.stop();

  const names = contenders.map((contender) => contender.name);
  const kinds = Object.keys(work.get('SDK') ?? {});
  process.stdout.write(
    `\nObjects and timers per call (global constructors only; undici's fetch builds one more Request inside)\n${formatTable(
      ['per call', ...names],
      kinds.map((kind) => [kind, ...names.map((name) => String(work.get(name)?.[kind] ?? 0))]),
    )}\n`,
  );

  const origins = [...new Set([...profiles.values()].flatMap(({ byOrigin }) => [...byOrigin.keys()]))];
  const perCall = (name: string, from: string) => (profiles.get(name)?.byOrigin.get(from) ?? 0) / calls;
  origins.sort((a, b) => perCall('SDK', b) - perCall('SDK', a));
  const total = (name: string) => origins.reduce((sum, from) => sum + perCall(name, from), 0);
  process.stdout.write(
    `\nSelf time per call, ${workload.name}, µs (CPU profile, ${calls} calls each)\n${formatTable(
      ['spent in', ...names],
      [
        ...origins.map((from) => [from, ...names.map((name) => perCall(name, from).toFixed(1))]),
        ['total (wall time per call, profiler running)', ...names.map((name) => total(name).toFixed(1))],
      ],
    )}\n`,
  );

  for (const name of names) {
    const functions = [...(profiles.get(name)?.byFunction ?? new Map<string, number>())]
      .sort((a, b) => b[1] - a[1])
      .filter(([fn]) => !fn.startsWith('(idle)') && !fn.startsWith('(program)') && !fn.startsWith('post '))
      .slice(0, 20);
    process.stdout.write(
      `\n${name}: top functions by self time, µs per call\n${formatTable(
        ['function', 'µs'],
        functions.map(([fn, us]) => [fn, (us / calls).toFixed(1)]),
      )}\n`,
    );
  }
}

await main();
