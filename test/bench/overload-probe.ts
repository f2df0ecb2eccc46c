/**
 * One process of the overload section: callers at a steady rate above the plan, then none, against
 * the fake's command, through the SDK's defaults or plain ky + zod retrying 429s by hand. It prints
 * `closing <epoch ms>` when the demand stops and it closes (the SDK) or stops taking work (ky), and
 * its figures as `result <json>`; the parent times its exit.
 *
 * Run with tsx and `--expose-gc`: `overload-probe.ts --contender=sdk|ky --url=... --key=...`.
 *
 * @module
 */
import { parseArgs } from 'node:util';
import ky from 'ky';
import * as z from 'zod/mini';
import { builtSdk } from './built-sdk.js';
import { settledHeapUsed } from './heap.js';
import { reportResult } from './probe.js';

const { values } = parseArgs({
  options: {
    contender: { type: 'string' },
    url: { type: 'string' },
    key: { type: 'string' },
    rate: { type: 'string' },
    seconds: { type: 'string' },
    'caller-timeout-ms': { type: 'string' },
    signals: { type: 'boolean' },
    'redis-url': { type: 'string' },
    limit: { type: 'string' },
  },
});
const contender = values.contender === 'ky' ? 'ky' : 'sdk';
const url = values.url ?? '';
const key = values.key ?? '';
const rate = Number(values.rate);
const demandMs = Number(values.seconds) * 1000;
const callerTimeoutMs = Number(values['caller-timeout-ms']);
const signals = values.signals === true;
const limit = Number(values.limit);

/** What one call came to. */
interface CallRecord {
  readonly started: number;
  ended?: number;
  ok?: boolean;
  /** Answered before its caller gave up. */
  useful?: boolean;
  /** The code of the client's own refusal (nothing sent), if it was one. */
  refused?: string | undefined;
}

// Every request the process sends, as its fetch sees it.
let requests = 0;
let refused429 = 0;
let inFlight = 0;
let sentAfterDemand = 0;
let demandOver = false;
const windowStarts: number[] = [];
const inFlightAt: { at: number; inFlight: number }[] = [];
const counting = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  requests++;
  if (demandOver) sentAfterDemand++;
  inFlight++;
  const started = performance.now();
  inFlightAt.push({ at: started, inFlight });
  try {
    const response = await fetch(input, init);
    if (response.status === 429) refused429++;
    // The first request of a window leaves limit - 1: it marks the window's start.
    if (Number(response.headers.get('x-ratelimit-remaining')) === limit - 1) windowStarts.push(started);
    return response;
  } finally {
    inFlight--;
  }
};

const PetList = z.array(z.object({ id: z.number(), name: z.string(), categoryId: z.number() }));
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

/** What a user writes by hand: ky, zod, and a loop that waits out each 429's Retry-After (up to a minute). */
async function kyCall(signal: AbortSignal | undefined): Promise<unknown> {
  for (let attempt = 0; ; attempt++) {
    const response = await ky.get(`${url}/pets`, {
      searchParams: { limit: 1 },
      headers: { authorization: `Bearer ${key}` },
      retry: 0,
      throwHttpErrors: false,
      timeout: 60_000,
      fetch: counting,
      ...(signal && { signal }),
    });
    // Waits of up to a minute (the SDK's maxRetryAfter), five times at most.
    const waitMs = Number(response.headers.get('retry-after') ?? '1') * 1000;
    if (response.status === 429 && attempt < 5 && waitMs <= 60_000) {
      await sleep(waitMs, signal);
      continue;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return PetList.parse(await response.json());
  }
}

const sdk = contender === 'sdk' ? await builtSdk() : undefined;
let closeRedis: (() => Promise<unknown>) | undefined;
let rateLimitStore: import('../../src/store/index.js').RateLimitStore | undefined;
if (sdk && values['redis-url']) {
  const { createClient } = await import('redis');
  const { redisRateLimitStore } = (await import(
    new URL('../../dist/redis/index.js', import.meta.url).href
  )) as typeof import('../../src/redis/index.js');
  const redis = await createClient({ url: values['redis-url'] }).connect();
  rateLimitStore = redisRateLimitStore(redis);
  closeRedis = () => redis.close();
}
const client = sdk
  ? new sdk.PetStoreClient({
      apiKey: key,
      baseUrl: url,
      fetch: counting,
      logLevel: 'off',
      ...(rateLimitStore && { rateLimitStore }),
    })
  : undefined;

const calls: CallRecord[] = [];
const settled: Promise<void>[] = [];
let peakWaiting = 0;
let peakPending = 0;
let pending = 0;

function call(): void {
  const record: CallRecord = { started: performance.now() };
  calls.push(record);
  pending++;
  const signal = signals ? AbortSignal.timeout(callerTimeoutMs) : undefined;
  const work = client ? client.listPets({ limit: 1 }, signal ? { signal } : {}) : kyCall(signal);
  settled.push(
    work
      .then(
        () => {
          record.ok = true;
        },
        (error: unknown) => {
          record.ok = false;
          const { sent, code } = error as { sent?: string; code?: string };
          record.refused = sent === 'no' ? code : undefined;
        },
      )
      .finally(() => {
        record.ended = performance.now();
        record.useful = record.ok === true && record.ended - record.started <= callerTimeoutMs;
        pending--;
      }),
  );
}

const heapBefore = await settledHeapUsed();
const started = performance.now();
const sampler = setInterval(() => {
  const waiting = client ? client.queue.waiting : pending - inFlight;
  peakWaiting = Math.max(peakWaiting, waiting);
  peakPending = Math.max(peakPending, pending);
}, 50);
// Open loop: the callers come at the rate whatever the answers do.
let issued = 0;
await new Promise<void>((resolve) => {
  const tick = setInterval(() => {
    const due = Math.floor(((performance.now() - started) / 1000) * rate);
    while (issued < due) {
      issued++;
      call();
    }
    if (performance.now() - started >= demandMs) {
      clearInterval(tick);
      resolve();
    }
  }, 10);
});
demandOver = true;
clearInterval(sampler);
const heapAtPeak = await settledHeapUsed();
const pendingAtEnd = pending;

process.stdout.write(`closing ${Date.now()}\n`);
const closing = performance.now();
await client?.close();
const closeMs = performance.now() - closing;
await Promise.all(settled);
const drainMs = performance.now() - closing;
await closeRedis?.();
const heapAfter = await settledHeapUsed();

const answered = calls.filter((record) => record.ok).map((record) => (record.ended ?? 0) - record.started);
answered.sort((a, b) => a - b);
const quantile = (q: number) => answered[Math.min(answered.length - 1, Math.floor(q * answered.length))] ?? 0;
// The most requests in flight within 250 ms of a window's start.
const atReset = Math.max(
  0,
  ...windowStarts.map((start) =>
    Math.max(
      0,
      ...inFlightAt.filter(({ at }) => at >= start && at <= start + 250).map(({ inFlight: n }) => n),
    ),
  ),
);
reportResult({
  contender,
  signals,
  calls: calls.length,
  answered: answered.length,
  useful: calls.filter((record) => record.useful).length,
  refused: calls.filter((record) => record.refused !== undefined && record.refused !== 'client_closed')
    .length,
  closed: calls.filter((record) => record.refused === 'client_closed').length,
  requests,
  refused429,
  sentAfterDemand,
  peakWaiting,
  peakPending,
  pendingAtEnd,
  heapBefore,
  heapAtPeak,
  heapAfter,
  p50: quantile(0.5),
  p99: quantile(0.99),
  closeMs,
  drainMs,
  inFlightAtReset: atReset,
});
