/**
 * `npx tsx test/bench/instructions/run.ts [--variant NAME=PATH]... [--workload NAME]...`: the CPU
 * instructions of one call of each peer workload (`getPet`, `listPets`, `list50`: list 100 pets, 50
 * in flight, `createPet`), through ky + zod, through ky driven as the SDK's transport drives it (its
 * instance, one attempt with its own timer, the SDK's schemas: the SDK without its own work), and
 * through the SDK (and each `--variant`, a built dist/index.js), counted by valgrind in the calling
 * process against the peer benchmark's server.
 *
 * Unlike `npm run bench`'s CPU time, the count hardly moves with the machine's load: builds compared
 * in one run differ by what they do, though a figure moves by up to 4% between runs (how the
 * server's answers arrive in reads), so compare builds in the same run. Each figure is the
 * difference between 3,300 and 300 calls over 3,000, so that start-up and warm-up cancel out; V8
 * runs single-threaded with a predictable GC schedule, its GC and compiler counted with the calls.
 * Time and allocation that are not instructions (cache misses, the kernel) are not counted: the bench
 * remains the judge. Needs valgrind (Debian's `valgrind`); a pair of runs takes a few minutes.
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { ensurePackageBuilt, PACKAGE_ROOT } from '../../support/package-build.js';
import { startLoopbackServer } from '../start-loopback-server.js';
import { formatTable } from '../table.js';

const PROBE = new URL('./probe.mjs', import.meta.url).pathname;
const PEER_SERVER = new URL('../peers/server.ts', import.meta.url).pathname;
const WORKLOADS = ['getPet', 'listPets', 'list50', 'createPet'];
const [FEW, MANY] = [300, 3_300];
const run = promisify(execFile);

/** Instructions the probe process runs for `calls` calls. */
async function instructions(calls: number, args: string[]): Promise<number> {
  const { stderr } = await run(
    'valgrind',
    [
      '--tool=cachegrind',
      '--cache-sim=no',
      // V8 writes and rewrites its machine code on the heap.
      '--smc-check=all-non-file',
      '--cachegrind-out-file=/dev/null',
      process.execPath,
      '--single-threaded',
      '--predictable-gc-schedule',
      PROBE,
      args[0] as string,
      String(calls),
      ...args.slice(1),
    ],
    { maxBuffer: 16 * 1024 * 1024 },
  );
  const refs = /I\s+refs:\s+([\d,]+)/.exec(stderr)?.[1];
  if (refs === undefined) throw new Error(`valgrind counted nothing:\n${stderr.slice(-2_000)}`);
  return Number(refs.replaceAll(',', ''));
}

async function perCall(args: string[]): Promise<number> {
  const [few, many] = await Promise.all([instructions(FEW, args), instructions(MANY, args)]);
  return Math.round((many - few) / (MANY - FEW));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { variant: { type: 'string', multiple: true }, workload: { type: 'string', multiple: true } },
  });
  await ensurePackageBuilt();
  // The package as built: the SDK's own column, and the schemas of the ky-as-SDK contender.
  const built = resolve(PACKAGE_ROOT, 'dist/index.js');
  const builds = [
    { name: 'SDK', path: built },
    ...(values.variant ?? []).map((spec) => {
      const separator = spec.indexOf('=');
      return { name: spec.slice(0, separator), path: resolve(spec.slice(separator + 1)) };
    }),
  ];
  const server = await startLoopbackServer(PEER_SERVER);
  const rows: string[][] = [];
  try {
    for (const workload of values.workload ?? WORKLOADS) {
      const ky = await perCall(['ky', server.url, workload]);
      const kyAsSdk = await perCall(['ky-as-sdk', server.url, workload, built]);
      const sdks = await Promise.all(builds.map(({ path }) => perCall(['sdk', server.url, workload, path])));
      rows.push([
        workload,
        ky.toLocaleString('en-US'),
        ...[kyAsSdk, ...sdks].map((count) => `${count.toLocaleString('en-US')} (${(count / ky).toFixed(3)})`),
      ]);
    }
  } finally {
    await server.stop();
  }
  console.log(
    `Instructions per call, and over ky + zod's (valgrind; ${MANY} calls less ${FEW})\n${formatTable(
      ['workload', 'ky + zod', 'ky as the SDK drives it', ...builds.map(({ name }) => name)],
      rows,
    )}`,
  );
}

await main();
