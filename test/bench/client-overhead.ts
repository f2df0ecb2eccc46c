/**
 * The per-call cost of the SDK against raw `fetch` + `JSON.parse`, with ky alone and ky with classic
 * zod's schema in between, all calling the same loopback server in alternating rounds.
 *
 * @module
 */
import ky from 'ky';
import type * as Sdk from '../../src/index.js';
import { BENCH_API_KEY } from './constants.js';
import { ClassicPetListSchema, ClassicPetSchema } from './plain-schemas.js';
import type { LoopbackServer } from './start-loopback-server.js';
import { alternate, type Contender, medianRoundRatio, throughput } from './timing.js';

/** An SDK to measure: the repository's, or another build of it passed with `--variant`. */
export interface SdkBuild {
  readonly name: string;
  readonly sdk: typeof Sdk;
}

export type Operation = 'listPets' | 'getPet';

/** One operation at one concurrency. */
export interface OverheadCase {
  readonly operation: Operation;
  readonly concurrency: number;
}

export const OVERHEAD_CASES: readonly OverheadCase[] = [
  { operation: 'listPets', concurrency: 1 },
  { operation: 'listPets', concurrency: 50 },
  { operation: 'getPet', concurrency: 1 },
  { operation: 'getPet', concurrency: 50 },
];

/** The raw contender, the baseline of every ratio. */
export const RAW = 'fetch + JSON.parse';

export interface ContenderResult {
  readonly name: string;
  readonly calls: number;
  readonly callsPerSecond: number;
  /** Throughput relative to raw fetch over all rounds. */
  readonly ratioToRaw: number;
  /** The median, over rounds, of the throughput relative to raw fetch in the same round. */
  readonly medianRoundRatio: number;
  /** CPU time of the calling process per call (user + system, all threads), in microseconds. */
  readonly cpuMicrosecondsPerCall: number;
}

export interface OverheadResult extends OverheadCase {
  readonly results: ContenderResult[];
}

const PET_COUNT = 100;
const headers = { Authorization: `Bearer ${BENCH_API_KEY}` };

function petId(index: number): number {
  return (index % PET_COUNT) + 1;
}

async function rawJson(url: string): Promise<unknown> {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return JSON.parse(await response.text());
}

function urlOf(operation: Operation, baseUrl: string): (index: number) => string {
  return (index) =>
    operation === 'listPets' ? `${baseUrl}/pets?limit=${PET_COUNT}` : `${baseUrl}/pets/${petId(index)}`;
}

/** A client of one build making the case's calls. */
export function sdkContender(
  { name, sdk }: SdkBuild,
  operation: Operation,
  baseUrl: string,
  around?: Contender['around'],
): Contender {
  const client = new sdk.PetStoreClient({ apiKey: BENCH_API_KEY, baseUrl, deprecationWarnings: false });
  return {
    name,
    call: (index) =>
      operation === 'listPets' ? client.listPets({ limit: PET_COUNT }) : client.getPet(petId(index)),
    ...(around !== undefined && { around }),
  };
}

/** Raw `fetch` + `JSON.parse`, the baseline of every ratio. */
export function rawContender(operation: Operation, baseUrl: string): Contender {
  const url = urlOf(operation, baseUrl);
  return { name: RAW, call: (index) => rawJson(url(index)) };
}

function contenders(operation: Operation, baseUrl: string, builds: readonly SdkBuild[]): Contender[] {
  const url = urlOf(operation, baseUrl);
  const schema = operation === 'listPets' ? ClassicPetListSchema : ClassicPetSchema;
  return [
    ...builds.map((build) => sdkContender(build, operation, baseUrl)),
    rawContender(operation, baseUrl),
    { name: 'ky', call: (index) => ky.get(url(index), { headers }).json() },
    { name: 'ky + zod', call: (index) => ky.get(url(index), { headers }).json(schema) },
  ];
}

/** Fails when a contender does not get the expected answer, so that no failing call is timed. */
async function checkAnswers(operation: Operation, all: readonly Contender[]): Promise<void> {
  for (const contender of all) {
    const body = await contender.call(0);
    const ok =
      operation === 'listPets'
        ? Array.isArray(body) && body.length === PET_COUNT
        : petId(0) === (body as { id?: unknown }).id;
    if (!ok) {
      throw new Error(`${contender.name} got an unexpected ${operation} answer: ${JSON.stringify(body)}`);
    }
  }
}

/** Measures each case; the server's request log is cleared between cases. */
export function measureClientOverhead(
  server: LoopbackServer,
  builds: readonly SdkBuild[],
  cases: readonly OverheadCase[],
  calls: number,
): Promise<OverheadResult[]> {
  return measureCases(server, cases, calls, (operation, baseUrl) => contenders(operation, baseUrl, builds));
}

/** Measures the contenders of each case in alternating rounds, each against raw fetch. */
export async function measureCases(
  server: LoopbackServer,
  cases: readonly OverheadCase[],
  calls: number,
  contendersOf: (operation: Operation, baseUrl: string) => Contender[],
): Promise<OverheadResult[]> {
  const results: OverheadResult[] = [];
  for (const overheadCase of cases) {
    await server.reset();
    const all = contendersOf(overheadCase.operation, server.url);
    await checkAnswers(overheadCase.operation, all);
    const measured = await alternate(all, {
      calls,
      rounds: 10,
      concurrency: overheadCase.concurrency,
      warmup: Math.min(300, calls),
    });
    const raw = measured.find((entry) => entry.name === RAW);
    if (raw === undefined) throw new Error('The raw contender is missing');
    const result: OverheadResult = {
      ...overheadCase,
      results: measured.map((entry) => ({
        name: entry.name,
        calls: entry.calls,
        callsPerSecond: throughput(entry),
        ratioToRaw: throughput(entry) / throughput(raw),
        medianRoundRatio: medianRoundRatio(entry, raw),
        cpuMicrosecondsPerCall: entry.cpuUs / entry.calls,
      })),
    };
    results.push(result);
  }
  return results;
}
